"""Challenges: an account invites 2 to 5 others to a game; it starts when all accept."""
