"""The lobby's commands: create a game, take a seat (a player's, or a bot's the server plays),
leave, start; and abandon the games nobody starts. Each changes one game in one unit of work
(api/unit_of_work.py) and tells it with the lobby's events (api/lobby_events.py)."""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass, replace
from typing import Any

from api import text_inputs
from api.clock import ClockState, TimeControl
from api.commands import AddBot, CreateGame, LeaveGame, StartGame, TakeSeat
from api.lobby_events import BotJoined, GameAbandoned, GameCreated, PlayerJoined, PlayerLeft
from api.moves import Play, apply_action, bots, follow_clock, time_control
from api.ratings.records import speed_of
from api.read_models import Session, acting_seat, hash_token, seats_payload, start_engine
from api.service_errors import ServiceError
from api.stores.base import Admission, Admits, GameRecord, GameStatus, SeatRecord
from api.unit_of_work import Change, Committed, UnitOfWork, Work
from domain import actions as a
from domain.errors import ErrorCode, InvalidOptions
from domain.events import Event
from domain.rng import SEED_BYTES, commitment, contribution_problem
from variants import VARIANTS, get_variant

LOBBY, ACTIVE, FINISHED = GameStatus.LOBBY, GameStatus.ACTIVE, GameStatus.FINISHED
# Who gave a seat's contribution (SeatRecord.client_seed_source).
SEAT_SEED, START_SEED, SERVER_SEED = "seat", "start", "server"


@dataclass(frozen=True, slots=True)
class Joined:
    record: GameRecord
    seat: int
    token: str
    # Whether the seat's client seed was recorded (False: none given, or a chosen seed's game).
    client_seed_accepted: bool = False


# --------------------------------------------------------------------------- create


async def create_game(work: Work, command: CreateGame) -> GameRecord:
    """A game in the lobby, by the rules of today for good (a later fix is for later games).
    A chosen seed is the secret itself, and said to everyone: its chooser knows every roll."""
    options, control = _settings(command)
    admitted = _rated(command, control)
    creator = hash_token(command.creator) if command.creator else ""
    await _check_unstarted(work, creator)
    seed = command.seed
    secret = seed.encode() if seed is not None else secrets.token_bytes(SEED_BYTES)
    now = work.now()
    record = GameRecord(
        id=command.game_id or uuid.uuid4().hex,
        variant=command.variant,
        options=options,
        seed=secret,
        commitment=commitment(secret),
        status=LOBBY,
        version=1,
        created_at=now,
        updated_at=now,
        creator=creator,
        time_control=control,
        rules_revision=VARIANTS[command.variant].rules_revision,
        seed_chosen=seed is not None,
        admission=admitted,
    )
    created = GameCreated(
        record.variant,
        record.options,
        record.commitment,
        record.rules_revision,
        record.seed_chosen,
        control,
    )
    payload = created.to_dict()
    del payload["type"]  # the create entry holds what the event tells, and who it admits
    admission = record.admission.to_plain()
    if admission is not None:
        payload["admission"] = admission
    await work.create(record, payload, created)
    return record


def _settings(command: CreateGame) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The game's options over its variant's defaults, and its time control, as plain data;
    a user error for an unknown variant or a bad option, seed or time control."""
    variant = command.variant
    if variant not in VARIANTS:
        known = ", ".join(sorted(VARIANTS))
        raise ServiceError(
            ErrorCode.UNKNOWN_VARIANT,
            f"unknown variant {text_inputs.shown(variant)}; known: {known}",
        )
    _check_text(ErrorCode.INVALID_OPTIONS, text_inputs.SEED, command.seed)
    for value in command.options.values():  # an option's value is a name of the data or no text
        _check_text(ErrorCode.INVALID_OPTIONS, text_inputs.DATA_NAME, value)
    try:
        options = VARIANTS[variant].options(command.options).to_dict()
        control = None
        if command.time_control:
            control = TimeControl.from_dict(command.time_control).to_dict()
    except (InvalidOptions, TypeError) as error:
        raise ServiceError(ErrorCode.INVALID_OPTIONS, str(error)) from None
    return options, control


def _rated(command: CreateGame, control: dict[str, Any] | None) -> Admission:
    """A rated game's admission: accounts only, its speed fixed by its clock; a chosen seed
    (whoever chose it knows every roll) is refused."""
    admission = command.admission
    if not admission.rated:
        return admission
    if command.seed is not None:
        raise ServiceError(
            ErrorCode.RATED_GAME_SEEDED,
            "a rated game's dice are nobody's choice: create it without a seed",
        )
    return replace(admission, accounts_required=True, speed=speed_of(control))


async def _check_unstarted(work: Work, creator: str) -> None:
    """A creator may have at most `max_unstarted_per_creator` games not started at once."""
    bound = work.lobby.max_unstarted_per_creator
    if creator and bound and await work.store.count_lobby_games(creator) >= bound:
        hours = work.lobby.unstarted_ttl_seconds / 3600
        raise ServiceError(
            ErrorCode.TOO_MANY_UNSTARTED_GAMES,
            f"you have {bound} games that have not started; start them, or create more "
            f"when they expire ({hours:g} h after their last change)",
        )


# --------------------------------------------------------------------------- seats


async def add_bot(work: Work, command: AddBot) -> Joined:
    """A bot at a free seat, which the server plays (any seated player, in the lobby).
    Its token is never given: nobody but the server acts for it."""
    await acting_seat(work.sessions, command.token, command.account, command.game_id)
    name = command.name
    if name is None:
        record = (await work.sessions.get(command.game_id)).record
        bots_seated = sum(1 for seat in record.seats if seat.bot is not None)
        name = f"Bot {bots_seated + 1} ({command.policy.value})"
    seat = TakeSeat(command.game_id, name, command.colour, command.policy)
    return await take_seat(work, seat)


async def take_seat(work: Work, command: TakeSeat) -> Joined:
    """A seat; a player's contribution to the game's randomness (`client_seed`: 1 to 64
    printable ASCII characters; ValueError otherwise) is recorded unless the game's seed
    was chosen (such a game must stay reproducible from its seed: `Joined` says so)."""
    check_client_seed(command.client_seed)
    account = command.account
    try:  # an account's seat takes the account's name, as registered
        name = account.name if account is not None else text_inputs.name(command.name)
    except text_inputs.TextRefused as refused:
        raise ServiceError(ErrorCode.INVALID_NAME, refused.message) from None
    _check_text(ErrorCode.INVALID_COLOUR, text_inputs.DATA_NAME, command.colour)
    async with work.unit(command.game_id) as unit:
        session = await unit.session()
        record = session.record
        if record.status != LOBBY:
            raise ServiceError(ErrorCode.GAME_ALREADY_STARTED, "this game has already started")
        _admit(record, command)
        colour = _free_colour(record, command.colour)
        token = secrets.token_urlsafe(32)  # an account's seat: a token nobody is given
        seat = len(record.seats)
        client_seed, source = _contribution(record, command)
        policy = None if command.bot is None else command.bot.value
        taken = SeatRecord(
            seat,
            name,
            colour,
            hash_token(token),
            policy,
            client_seed,
            source,
            account_id=None if account is None else account.id,
            account_bot=account is not None and account.bot,
        )
        joined: Event = PlayerJoined(seat, name, colour)
        payload: dict[str, Any] = {"seat": seat, "name": name, "colour": colour}
        if policy is not None:
            payload["bot"] = policy
            joined = BotJoined(seat, name, colour, policy)
        if client_seed is not None:
            payload["client_seed"] = client_seed
            payload["client_seed_source"] = source
        updated = replace(record, seats=(*record.seats, taken))
        change = Change(updated, "join", None, payload, [joined])
        committed = await unit.commit(session, change)
        return Joined(committed.record, seat, token, client_seed_accepted=source == SEAT_SEED)


def _admit(record: GameRecord, command: TakeSeat) -> None:
    """A user error if the game does not admit this seat (Admission), or if the account
    already sits in it: an account holds at most one seat of a game."""
    account = command.account
    if account is not None and record.seat_of_account(account.id) is not None:
        raise ServiceError(ErrorCode.ALREADY_SEATED, "this account already has a seat here")
    admission = record.admission
    bot = command.bot is not None or (account is not None and account.bot)
    if admission.admits == Admits.PEOPLE and bot:
        raise ServiceError(ErrorCode.PEOPLE_ONLY, "this game admits people only, no bot")
    if admission.admits == Admits.BOTS and not bot:
        raise ServiceError(ErrorCode.BOTS_ONLY, "this game admits bot accounts only")
    if admission.rated and account is None:
        raise ServiceError(
            ErrorCode.ACCOUNT_REQUIRED,
            "a rated game admits accounts only (no guest, no bot the server plays)",
        )
    if admission.accounts_required and account is None and command.bot is None:
        raise ServiceError(
            ErrorCode.ACCOUNT_REQUIRED, "this game admits accounts only: log in to join it"
        )


def _free_colour(record: GameRecord, colour: str | None) -> str:
    """The colour a new seat gets: the one asked for, else the first free; a user error for
    a full game, an unknown colour or one taken."""
    ruleset = get_variant(record.variant).ruleset
    if len(record.seats) >= ruleset.max_players:
        raise ServiceError(ErrorCode.GAME_FULL, f"this game is full ({ruleset.max_players})")
    taken = {seat.colour for seat in record.seats}
    known = [c.id for c in ruleset.colours]
    if colour is None:
        return next(c for c in known if c not in taken)
    if colour not in known:
        raise ServiceError(
            ErrorCode.INVALID_COLOUR, f"unknown colour {colour!r}; use one of {known}"
        )
    if colour in taken:
        raise ServiceError(ErrorCode.COLOUR_TAKEN, f"{colour} is already taken")
    return colour


def _contribution(record: GameRecord, command: TakeSeat) -> tuple[str | None, str | None]:
    """A new seat's contribution to the dice and who gave it: none in a game whose seed was
    chosen (it stays reproducible from its seed); the server's own for a bot it plays."""
    if record.seed_chosen:
        return None, None
    if command.bot is not None:
        return secrets.token_hex(16), SERVER_SEED
    if command.client_seed is not None:
        return command.client_seed, SEAT_SEED
    return None, None


async def leave_game(work: Work, command: LeaveGame) -> GameRecord:
    """Before the start the seat is freed (the later seats move up one place, keeping their
    tokens); after it, the player resigns."""
    _, seat = await acting_seat(work.sessions, command.token, command.account, command.game_id)
    async with work.unit(command.game_id) as unit:
        session = await unit.session()
        record = session.record
        if record.status == LOBBY:
            seats = tuple(
                replace(s, seat=s.seat - (s.seat > seat)) for s in record.seats if s.seat != seat
            )
            change = Change(
                replace(record, seats=seats), "leave", seat, {"seat": seat}, [PlayerLeft(seat)]
            )
            return (await unit.commit(session, change)).record
        if record.status == FINISHED:
            raise ServiceError(ErrorCode.GAME_OVER, "the game is over")
        submitted = await apply_action(unit, session, Play(seat, a.Resign()))
        assert submitted.session is not None
        return submitted.session.record


# --------------------------------------------------------------------------- start


async def start_game(work: Work, command: StartGame) -> GameRecord:
    """Start the game. `client_seed`: the starting seat's contribution, which replaces the
    one it gave when it joined. Given at the start, when every other contribution is fixed,
    it is the last: nobody (the server's operator either, who knows the secret) could have
    chosen a contribution of its own knowing it (docs/architecture.md, "A game's
    randomness"). Ignored in a game whose seed was chosen."""
    check_client_seed(command.client_seed)
    _, seat = await acting_seat(work.sessions, command.token, command.account, command.game_id)
    async with work.unit(command.game_id) as unit:
        session = await unit.session()
        record = session.record
        if record.status != LOBBY:
            raise ServiceError(ErrorCode.GAME_ALREADY_STARTED, "this game has already started")
        minimum = get_variant(record.variant).ruleset.min_players
        if len(record.seats) < minimum:
            raise ServiceError(
                ErrorCode.NOT_ENOUGH_PLAYERS, f"this game needs at least {minimum} players"
            )
        record = _contributions_fixed(record, seat, command.client_seed)
        return (await _start(unit, session, record, seat)).record


def _contributions_fixed(record: GameRecord, starter: int, client_seed: str | None) -> GameRecord:
    """The seats' contributions fixed in seat order, the starter's replaced by `client_seed`:
    the dice's seed is derived from them and the secret (none in a chosen seed's game)."""
    if record.seed_chosen:
        return record
    if client_seed is not None:
        seats = tuple(
            replace(s, client_seed=client_seed, client_seed_source=START_SEED)
            if s.seat == starter
            else s
            for s in record.seats
        )
        record = replace(record, seats=seats)
    return replace(record, contributions=tuple(s.client_seed for s in record.seats))


async def _start(unit: UnitOfWork, session: Session, record: GameRecord, starter: int) -> Committed:
    """Deal the game and commit its start entry, with its clock when it has one (a time
    control, a time limit, or a bot at the table)."""
    payload = seats_payload(record)
    game = start_engine(record, payload)
    updated = replace(record, status=ACTIVE)
    events = list(game.initial_events)
    control = time_control(record)
    limit = game.options.time_limit_minutes
    if control is not None or limit is not None or any(bots(record)):
        now = unit.work.now()
        limit_at = None if limit is None else now + limit * 60
        clock = ClockState.start(control, len(record.seats), limit_at)
        updated = replace(updated, clock=clock.to_plain())
        updated, told = follow_clock(updated, game, now, lambda state: state)
        events += told
    change = Change(updated, "start", starter, payload, events, game)
    return await unit.commit(session, change)


# --------------------------------------------------------------------------- abandon


async def abandon_stale(work: Work) -> list[str]:
    """Abandon the games that have not started and have not changed for
    `lobby.unstarted_ttl_seconds`: they finish without a winner (GameAbandoned)."""
    ttl = work.lobby.unstarted_ttl_seconds
    if not ttl:
        return []
    before = work.now() - ttl
    abandoned: list[str] = []
    for game_id in await work.store.stale_lobby_games(before, 100):
        async with work.unit(game_id) as unit:
            session = await unit.session()
            record = session.record
            if record.status != LOBBY or record.updated_at >= before:
                continue  # joined or started meanwhile
            outcome: dict[str, Any] = {"winner": None, "reason": "not_started", "ranking": []}
            finished = replace(record, status=FINISHED, outcome=outcome)
            change = Change(finished, "abandon", None, {}, [GameAbandoned("not_started")])
            try:
                await unit.commit(session, change)
            except ServiceError:  # another instance abandoned it first
                continue
            abandoned.append(game_id)
    return abandoned


# --------------------------------------------------------------------------- checks


def check_client_seed(client_seed: str | None) -> None:
    """A contribution the API has already bounded; ValueError for one that is not."""
    problem = None if client_seed is None else contribution_problem(client_seed)
    if problem is not None:
        raise ValueError(problem)


def _check_text(code: ErrorCode, bound: text_inputs.TextBound, value: object) -> None:
    """A user error of `code` when `value` is a text outside `bound` (None passes)."""
    if isinstance(value, str):
        try:
            bound.check(value)
        except text_inputs.TextRefused as refused:
            raise ServiceError(code, refused.message) from None
