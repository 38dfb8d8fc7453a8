"""An account's command, as every mutation of challenges, the pool, tournaments and the ladder
runs it: its client mutation id bounded, the request's account judged, then the command; a
refusal with a code becomes the payload's user error, a refused credential fails the request."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from api.accounts.scopes import Principal
from api.graphql.account_types import refused
from api.graphql.accounts import request_principal
from api.graphql.arguments import bounded
from api.graphql.context import Info
from api.graphql.inputs import UserError, user_error
from api.text_inputs import CLIENT_MUTATION_ID
from domain.errors import CodedError

R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Answered(Generic[R]):
    """Who asked, and what the command made (None when refused, with why)."""

    principal: Principal
    record: R | None
    user_errors: list[UserError]


async def run_as_account(
    info: Info, key: str | None, command: Callable[[Principal], Awaitable[R]]
) -> Answered[R]:
    bounded(CLIENT_MUTATION_ID, key)
    principal = await request_principal(info)
    try:
        with refused():
            return Answered(principal, await command(principal), [])
    except CodedError as error:
        return Answered(principal, None, [user_error(error)])
