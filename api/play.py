"""A seat's move (submitAction): its token's seat, the first answer again for a repeated
clientMutationId, the clock first for a seat whose deadline has passed, the version it
expects, then the one write of an action (api/moves.py)."""

from __future__ import annotations

from api.commands import SubmitAction
from api.moves import Play, Submitted, apply_action
from api.read_models import acting_seat, of_game
from api.scheduler import act_if_late
from api.service_errors import ServiceError
from api.stores import codec
from api.unit_of_work import Work
from domain.errors import CodedError, ErrorCode


async def submit_action(work: Work, command: SubmitAction) -> Submitted:
    token_seat = command.token_seat
    if command.account is not None or token_seat is None or not command.token:
        token_seat = await acting_seat(
            work.sessions, command.token, command.account, command.game_id
        )
    _, seat = of_game(token_seat, command.game_id)
    if not command.action.by_seat:  # the clock's, and leaving (leaveGame)
        raise ServiceError(ErrorCode.INVALID_ACTION, "that is not an action a seat can submit here")
    key = command.idempotency_key
    async with work.unit(command.game_id) as unit:
        first = await first_answer(work, command.game_id, seat, key)
        if first is not None:
            return first
        try:
            session = await unit.session()
            if await act_if_late(unit, session, seat):
                session = await unit.session()
            expected = command.expected_version
            if expected is not None and expected != session.record.version:
                raise ServiceError(
                    ErrorCode.STALE_VERSION,
                    f"the game is at version {session.record.version}, not {expected}",
                )
            return await apply_action(unit, session, Play(seat, command.action, key))
        except CodedError:
            # Another instance may have committed this very request since the look-up
            # above (the key is unique in the store, written with the entry): then the
            # caller gets its answer, not the refusal of a second attempt.
            first = await first_answer(work, command.game_id, seat, key)
            if first is not None:
                return first
            raise


async def first_answer(work: Work, game_id: str, seat: int, key: str | None) -> Submitted | None:
    """The answer given to the first request with this `clientMutationId`, if any."""
    if key is None:
        return None
    answer = await work.store.idempotent_response(game_id, seat, key)
    if answer is None:
        return None
    variant = (await work.sessions.get(game_id)).record.variant
    version, events = codec.decode_answer(variant, answer)
    return Submitted(version, events)
