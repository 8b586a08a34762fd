"""Coups replayed under the rules of play: each aspect's breach at its place, compliant samples clean."""
