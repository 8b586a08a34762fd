"""The game engines (baccarat, blackjack, dice, poker, roulette) against exact facts and brute force."""
