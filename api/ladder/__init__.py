"""The bots' ladder: bot accounts that opt in are seated by the server in rated games against
each other, continuously (docs/rated-play.md, "The bots' ladder")."""
