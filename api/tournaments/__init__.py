"""Tournaments run by the server: registration, rounds of tables, results and standings, over
the pure algorithms of `competition/` (docs/tournaments.md)."""
