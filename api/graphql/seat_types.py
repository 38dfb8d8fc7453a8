"""Accounts at the table, as the schema shows them: who a game admits (`Admission`, chosen at
creation with `AdmissionInput`), and the account a seat is bound to (`Player.account`)."""

from __future__ import annotations

import strawberry

from api.accounts.scopes import Principal
from api.commands import SeatAccount as SeatTaker
from api.stores.base import Admission as StoredAdmission
from api.stores.base import Admits, GameRecord, SeatRecord

strawberry.enum(Admits, description="Who a game admits to its seats.")


@strawberry.input(
    description="Who may take a seat in a new game: a choice of the lobby, not a rule of the "
    "game. Omitted: anyone, guests too."
)
class AdmissionInput:
    accounts_required: bool = strawberry.field(
        default=False,
        description="Only accounts may join: a guest (joinGame without an account's "
        "credential) is refused with ACCOUNT_REQUIRED.",
    )
    admits: Admits = strawberry.field(
        default=Admits.ANYONE,
        description="ANYONE; PEOPLE: no bot account joins and no bot is added (PEOPLE_ONLY); "
        "BOTS: only bot accounts join (BOTS_ONLY), and bots the server plays may be added; "
        "a game of bots requires accounts.",
    )

    def to_admission(self) -> StoredAdmission:
        required = self.accounts_required or self.admits == Admits.BOTS
        return StoredAdmission(required, self.admits)


@strawberry.type(name="Admission", description="Who may take a seat in the game.")
class AdmissionType:
    accounts_required: bool = strawberry.field(
        description="Only accounts may join (guests are refused: ACCOUNT_REQUIRED)."
    )
    admits: Admits = strawberry.field(description="ANYONE, PEOPLE only, or BOTS only.")


def admission_type(record: GameRecord) -> AdmissionType:
    admission = record.admission
    return AdmissionType(
        accounts_required=admission.accounts_required, admits=Admits(admission.admits)
    )


@strawberry.type(description="The account a seat is bound to; its profile is account(name:).")
class SeatAccount:
    name: str = strawberry.field(description="The account's name (the seat's name too).")
    bot: bool = strawberry.field(description="A bot account: it plays by program.")


def seat_account(seat: SeatRecord) -> SeatAccount | None:
    """None for a guest's seat, a bot the server plays, and a deleted account's seat."""
    if seat.account_id is None or seat.anonymous:
        return None
    return SeatAccount(name=seat.name, bot=seat.account_bot)


def seat_taker(principal: Principal) -> SeatTaker:
    """What a seat bound to the account keeps of it: its id, name and bot status (fixed for
    good once it sits anywhere)."""
    return SeatTaker(principal.account_id, principal.name, principal.bot)
