"""Game logs through the command: headers, coups, sessions, shoes, time zones, the readers of JSON Lines and CSV."""
