"""Rated play on the server: a rated game's settings, its rating once it ends, the accounts'
ratings, their history and the leaderboards, over the pure model of `competition/ratings.py`
(docs/rated-play.md, "The service")."""
