"""`risiko accounts …` on both stores: the operator creates, lists, disables accounts and
resets a password, with what the API's players then see."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

import pytest

from api.accounts import handlers
from api.accounts.cli import account_store
from api.accounts.commands import LogIn
from api.accounts.errors import AccountError, CredentialRefused
from api.accounts.service import Accounts
from api.cli import main
from domain.errors import ErrorCode

PASSWORD = "a kettle of purple mongooses"
NEW = "seven lazy otters at noon"


@pytest.fixture(params=["sqlite", "mongo"])
def data_dir(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> str:
    if request.param == "mongo":
        monkeypatch.setenv("RISIKO_STORE", request.getfixturevalue("mongo_uri"))
    else:
        monkeypatch.delenv("RISIKO_STORE", raising=False)
    return str(tmp_path / "data")


def risiko(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str, stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def log_in(data_dir: str, name: str, password: str) -> str:
    async def run() -> str:
        store = account_store(data_dir)
        await store.open()
        accounts = Accounts(store)
        try:
            made = await handlers.log_in(accounts, LogIn(name, password, "192.0.2.1"))
            await accounts.authenticate(made.token)
            return made.token
        finally:
            accounts.close()
            await store.close()

    return asyncio.run(run())


def authenticates(data_dir: str, token: str) -> bool:
    async def run() -> bool:
        store = account_store(data_dir)
        await store.open()
        try:
            await Accounts(store).authenticate(token)
        except CredentialRefused:
            return False
        finally:
            await store.close()
        return True

    return asyncio.run(run())


def test_the_operator_creates_lists_disables_and_resets(
    data_dir: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    accounts = ("accounts", "--data-dir", data_dir)
    made = risiko(
        monkeypatch, capsys, *accounts, "create", "Ada", "--password-stdin", stdin=PASSWORD + "\n"
    )
    assert made == (0, "created account Ada\n", "")
    code, _, err = risiko(
        monkeypatch, capsys, *accounts, "create", "ADA", "--password-stdin", stdin=PASSWORD
    )
    assert (code, err) == (2, "risiko: this name is taken\n")
    code, _, err = risiko(
        monkeypatch, capsys, *accounts, "create", "Bob", "--password-stdin", stdin="short"
    )
    assert code == 2
    assert "at least 15 characters" in err
    bot = risiko(
        monkeypatch,
        capsys,
        *accounts,
        "create",
        "Robo",
        "--bot",
        "--password-stdin",
        stdin=PASSWORD,
    )
    assert bot[0] == 0
    code, out, _ = risiko(monkeypatch, capsys, *accounts, "list", "--json")
    listed = [json.loads(line) for line in out.splitlines()]
    assert [(a["name"], a["bot"], a["status"]) for a in listed] == [
        ("Ada", False, "active"),
        ("Robo", True, "active"),
    ]
    session = log_in(data_dir, "ada", PASSWORD)
    assert risiko(monkeypatch, capsys, *accounts, "disable", "ada")[:2] == (0, "Ada is disabled\n")
    assert not authenticates(data_dir, session)
    with pytest.raises(AccountError) as refused:
        log_in(data_dir, "ada", PASSWORD)
    assert refused.value.code is ErrorCode.ACCOUNT_DISABLED
    assert risiko(monkeypatch, capsys, *accounts, "disable", "ada", "--enable")[0] == 0
    assert authenticates(data_dir, session)
    reset = risiko(
        monkeypatch, capsys, *accounts, "reset-password", "ada", "--password-stdin", stdin=NEW
    )
    assert reset[:2] == (0, "new password for ada; 1 credentials ended\n")
    assert not authenticates(data_dir, session)
    assert authenticates(data_dir, log_in(data_dir, "Ada", NEW))
    code, _, err = risiko(monkeypatch, capsys, *accounts, "disable", "nobody")
    assert (code, err) == (2, "risiko: there is no such account\n")


def test_a_password_is_never_an_argument_and_needs_a_terminal_or_stdin(
    data_dir: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = risiko(monkeypatch, capsys, "accounts", "--data-dir", data_dir, "create", "Zed")
    assert (code, err) == (2, "risiko: no terminal to ask for the password: --password-stdin\n")
    with pytest.raises(SystemExit):
        main(["accounts", "create", "Zed", "--password", PASSWORD])
