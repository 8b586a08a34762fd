"""The shared vocabulary every stage speaks: findings and their citations, how values and names are shown
and compared, JSON pointers, and the result of a run. Depends on nothing else of casino_audit."""
