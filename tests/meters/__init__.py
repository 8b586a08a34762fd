"""Meter logs: readings, resets, drop counts, denominations and the realised return judged against the PAR data."""
