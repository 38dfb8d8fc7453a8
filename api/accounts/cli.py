"""`risiko accounts create | reset-password | disable | list`: the operator's commands, on
the store the server uses (RISIKO_STORE, else the data folder's SQLite file).

A password is never an argument (a command line is seen by every user of the machine, and
kept in shell histories): it is asked for twice at a terminal, or read from the first line
of standard input with --password-stdin.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from api.accounts.errors import AccountError
from api.accounts.service import Accounts
from api.stores.accounts import AccountRecord, AccountStore
from domain.errors import ErrorCode

T = TypeVar("T")
PAGE = 500


def add_account_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    accounts = commands.add_parser(
        "accounts",
        help="create, list and disable accounts, reset a password (the server's store)",
        description="The operator's account commands, on the store the server uses "
        "(RISIKO_STORE, else RISIKO_DATA_DIR's embedded store). Passwords are asked for at "
        "the terminal, or read from standard input with --password-stdin, never given as "
        "arguments.",
    )
    accounts.add_argument("--data-dir", help="folder of the embedded store (RISIKO_DATA_DIR)")
    actions = accounts.add_subparsers(dest="action", required=True, help="what to do")
    create = actions.add_parser("create", help="a new account")
    create.add_argument("name", help="its name (3 to 24 letters, digits, '_', '-', '.')")
    create.add_argument("--bot", action="store_true", help="a bot account, from the start")
    _password_argument(create)
    create.set_defaults(handler=_create)
    reset = actions.add_parser(
        "reset-password", help="a new password: every session of the account ends"
    )
    reset.add_argument("name", help="the account's name")
    reset.add_argument("--end-api-tokens", action="store_true", help="revoke its API tokens too")
    _password_argument(reset)
    reset.set_defaults(handler=_reset)
    disable = actions.add_parser(
        "disable", help="refuse the account's logins and credentials (until --enable)"
    )
    disable.add_argument("name", help="the account's name")
    disable.add_argument("--enable", action="store_true", help="enable it again instead")
    disable.set_defaults(handler=_disable)
    listing = actions.add_parser("list", help="every account, by name")
    listing.add_argument("--json", action="store_true", help="one JSON object per line")
    listing.set_defaults(handler=_list)


def _password_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--password-stdin",
        action="store_true",
        help="read the password from the first line of standard input",
    )


def _create(args: argparse.Namespace) -> int:
    from api.accounts.operator import create_account

    password = _password(args)
    account = _run(args, lambda accounts: create_account(accounts, args.name, password, args.bot))
    print(f"created {'bot ' if account.bot else ''}account {account.name}")
    return 0


def _reset(args: argparse.Namespace) -> int:
    from api.accounts.operator import reset_password

    password = _password(args)
    ended = _run(
        args, lambda accounts: reset_password(accounts, args.name, password, args.end_api_tokens)
    )
    print(f"new password for {args.name}; {ended} credentials ended")
    return 0


def _disable(args: argparse.Namespace) -> int:
    from api.accounts.operator import set_disabled

    account = _run(args, lambda accounts: set_disabled(accounts, args.name, not args.enable))
    print(f"{account.name} is {'disabled' if account.disabled else 'enabled'}")
    return 0


def _list(args: argparse.Namespace) -> int:
    async def every(accounts: Accounts) -> list[AccountRecord]:
        found: list[AccountRecord] = []
        while page := await accounts.store.accounts(found[-1].key if found else None, PAGE):
            found.extend(page)
        return found

    for account in _run(args, every):
        created = datetime.fromtimestamp(account.created_at, UTC).isoformat(timespec="seconds")
        status = "deleted" if account.deleted else "disabled" if account.disabled else "active"
        if args.json:
            row = {"name": account.name, "bot": account.bot, "status": status}
            print(json.dumps({**row, "created_at": created}, ensure_ascii=False))
        else:
            name = account.name or f"({account.key})"
            print(f"{name:<24} {'bot' if account.bot else 'person':<6} {status:<8} {created}")
    return 0


def _password(args: argparse.Namespace) -> str:
    if args.password_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    if not sys.stdin.isatty():
        raise AccountError(
            ErrorCode.INVALID_PASSWORD, "no terminal to ask for the password: --password-stdin"
        )
    first = getpass.getpass("password: ")
    if getpass.getpass("again: ") != first:
        raise AccountError(ErrorCode.INVALID_PASSWORD, "the two passwords differ")
    return first


def _run(args: argparse.Namespace, work: Callable[[Accounts], Awaitable[T]]) -> T:
    async def run() -> T:
        store = account_store(args.data_dir)
        await store.open()
        accounts = Accounts(store)
        try:
            return await work(accounts)
        finally:
            accounts.close()
            await store.close()

    return asyncio.run(run())


def account_store(data_dir: str | None) -> AccountStore:
    """The account store of the server's settings (the environment, and --data-dir)."""
    from api.settings import Settings

    settings = Settings(data_dir=Path(data_dir)) if data_dir else Settings()
    if settings.store:
        from api.stores.mongo_accounts import MongoAccountStore

        concern = settings.mongodb_write_concern
        return MongoAccountStore(settings.store, int(concern) if concern.isdigit() else concern)
    from api.stores.sqlite_accounts import SqliteAccountStore

    return SqliteAccountStore(settings.database)
