"""Stage 4, check: the jurisdictions' rulesets (rules with ids, severities, citations with the law's
words), the check kinds that judge a document (law/checks), the engine that binds both to a run, and
the rules' passing and failing cases."""
