"""The pure algorithms of competitive play: a tournament's tables, scores and standings
(issue 30), ratings and the matchmaking pool (issue 31).

Like `domain/`, nothing here does I/O or knows the API, a store or a game by name: the
services call these functions with plain data (opaque player ids, points, ranks, ratings)
and keep what they return. Everything is deterministic: the same inputs (and, where chance
decides, the same secret seed) give the same result, so anyone can recompute it afterwards.
docs/tournaments.md and docs/rated-play.md say every choice.
"""
