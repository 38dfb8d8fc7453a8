"""Accounts: people and bots that last beyond one game (docs/accounts.md).

`names`, `passwords`, `tokens` and `scopes` are the rules; `throttle` bounds guessing;
`service.Accounts` holds what the commands share and authenticates a bearer token;
`handlers` and `operator` are the commands; `cli` is `risiko accounts`.
"""
