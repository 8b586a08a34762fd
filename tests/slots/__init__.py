"""The slot engine, PAR data and casino-audit rtp, their budgets of work."""
