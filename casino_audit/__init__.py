"""casino-audit: check casino filings against gaming law."""

__version__ = "0.1.0"
