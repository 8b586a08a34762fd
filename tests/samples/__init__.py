"""casino-audit sample-log: compliant samples and injected breaches found by their rules."""
