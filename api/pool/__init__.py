"""The matchmaking pool served: seeks kept in a store, matched by competition/matchmaking.py,
their tables' games created and started (docs/rated-play.md, "The pool, served")."""
