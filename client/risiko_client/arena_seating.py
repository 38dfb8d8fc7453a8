"""How the arena's bots sit: the credentials of bot accounts, read from a file, and who the
games admit (risiko arena --tokens, --admits, --accounts-only)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Seating:
    """How the bots sit: the credential of each seat's bot account (None: a guest), and who
    the game admits (an AdmissionInput; None: anyone)."""

    credentials: Sequence[str | None] = ()
    admission: dict[str, Any] | None = None

    def credential(self, seat: int) -> str | None:
        return self.credentials[seat] if seat < len(self.credentials) else None


GUESTS = Seating()  # every bot a guest, and a game that admits anyone


def check_seating(bots: list[str], seating: Seating, server: str) -> None:
    """ValueError, before any game, for credentials the bots cannot use."""
    if len(seating.credentials) > len(bots):
        raise ValueError(f"{len(seating.credentials)} credentials for {len(bots)} bots")
    for i, name in enumerate(bots):
        if name.startswith(server) and seating.credential(i):
            raise ValueError(f"{name} is played by the server: it takes no credential")


def read_credentials(path: Path) -> list[str | None]:
    """The credentials of a file: one personal API token per line, for the bots in their
    order (an empty line: that bot joins as a guest). Tokens are never arguments: a command
    line is seen by every user of the machine, and kept in shell histories."""
    lines = path.read_text().splitlines()
    return [line.strip() or None for line in lines]


def seating_of(args: argparse.Namespace) -> Seating:
    """The bots' credentials (--tokens) and who the games admit (--admits, --accounts-only)."""
    credentials = read_credentials(args.tokens) if args.tokens is not None else []
    admission = None
    if args.admits != "anyone" or args.accounts_only:
        admission = {"accountsRequired": args.accounts_only, "admits": args.admits.upper()}
    return Seating(credentials, admission)
