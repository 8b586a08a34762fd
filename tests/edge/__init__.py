"""casino-audit edge: each bet's house edge from the law's rules of play or a table's configuration."""
