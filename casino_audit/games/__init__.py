"""Game engines: one small module per game family, pure functions that take the law's rules of play as data
(what differs between jurisdictions lives in the rulesets, with citations; the engines are generic).

Used to replay game logs coup by coup. Importing this package imports nothing else.
"""
