"""The kernel every game stands on: no rule of any game, only what they all share.

A game holds its whole state and changes it only through `apply(seat, action)`, which returns
the events the action caused or raises a `RuleViolation` having changed nothing. The kernel
gives every game: the seats and their colours, the seed and its commitment, the sequence number
of actions, dispatch of an action to the game's handler, the prompt stack (decisions owed out
of turn, each with a default), copies, snapshots with a declared state and a format version,
the revision of its rules a game plays by, the random stream of each action, resignation, the
end of the game and its ranking. What the game adds is its state, its handlers and its legal
actions, through the hooks `Kernel` declares (below, "The hooks"); every other member is final
(`typing.final`: mypy refuses an override, and tests/unit/test_kernel_hooks.py checks every
game). `domain.risiko` holds the RisiKo! mechanics several games compose; `variants/` the games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar, final

from domain import actions as a
from domain import events as e
from domain.errors import (
    GameOver,
    InvalidAction,
    InvalidOptions,
    NotYourTurn,
    OptionDisabled,
    TimeAlreadyExpired,
    WrongPhase,
)
from domain.flow import OpenPrompt, Phase, rank
from domain.legal import LegalAction
from domain.options import GameOptions
from domain.reads import Reads
from domain.rng import DerivedRandom, commitment
from domain.ruleset import Ruleset
from domain.state import Copies
from domain.views import ARMY, Prompt, StateView

Handler = Callable[[Any, int | None, Any], list[e.Event]]
H = TypeVar("H", bound=Callable[..., list[e.Event]])


def handles(*kinds: type[a.Action]) -> Callable[[H], H]:
    """Declare the method that applies these kinds of action: the kernel dispatches each
    action to its kind's method, and a game plays the kinds its classes' methods handle."""

    def declared(method: H) -> H:
        method.__handles__ = kinds  # type: ignore[attr-defined]
        return method

    return declared


class Kernel(Reads, Copies):
    """One game of any variant. Create it with the players' names; it deals and starts at once
    (`initial_events` says what the deal did).

    The hooks: what a game defines, and nothing else of the kernel's.
    - Declared: `RULESET_CLASS`, `OPTIONS_CLASS`, `STATE_VIEW`, `UNIT_KINDS`, `MARKER_KINDS`,
      `RULES_REVISIONS`, `SNAPSHOT_FORMAT`, `LEAVES_BEFORE_ANSWERING`, and `_STATE` (its own
      state's attribute names: the kernel keeps its own, and collects every class's).
    - Must define: `_deal`, `_turn_actions`, `turn_order`, `points`, `space_views`, the
      handlers of its actions (`@handles(Kind)` over each); and `_prompt_answers` if it
      opens prompts, `_leave_turn` if a seat may resign in turn.
    - May define (a default here): `_check_options`, `_start_state`, `_prompt_default`,
      `_out_of_turn_actions`, `_after_action`, `_leaving`, `_before_finish`,
      `_revealed_at_end`, `_snapshot_more`, `_restore_more`, `turn_key`; the reads
      `territories_held`, `armies_of`, `hand`, `card_face`, `deck_size`, `private_state`,
      `armies_to_place`, `secret_objective`, `state_view`, `pieces_to_place`.
    Every other member is final: the way an action is applied, legal actions are listed,
    prompts are kept, a seat resigns, copies and snapshots are made and a game ends is one.
    """

    # What its board can show (domain/views.py): the kinds of unit and of marker.
    UNIT_KINDS: ClassVar[tuple[str, ...]] = (ARMY,)
    MARKER_KINDS: ClassVar[tuple[str, ...]] = ()

    # What the game shows of its own state (domain/views.py), beyond what every game shows.
    STATE_VIEW: ClassVar[type[StateView]] = StateView

    # The rules and the options this game plays with: a game created without options gets
    # these options' defaults, and another game's rules or options are refused.
    RULESET_CLASS: ClassVar[type[Ruleset]] = Ruleset
    OPTIONS_CLASS: ClassVar[type[GameOptions]] = GameOptions

    # The snapshot's layout. Bump it whenever the state a snapshot holds changes meaning or
    # shape: a stored snapshot of another format is dropped and the game replayed from its
    # log (the log is the truth; a snapshot only saves replaying it).
    SNAPSHOT_FORMAT: ClassVar[int] = 1
    # The revisions of the game's rules, each with one line on what it changed: revision 1 is
    # the rules as first played. A rule fixed after games were saved branches on
    # `self.rules_revision` (small and explicit), so a saved game replays by the rules it was
    # created under and only games created after the fix play the new one. Each registered
    # game declares its own (a game that extends another keeps its own count), and its docs
    # list the same lines (docs/architecture.md, "Rules revisions").
    RULES_REVISIONS: ClassVar[Mapping[int, str]] = {1: "The rules as first played."}
    # Whether a seat that resigns is out before the answers it owes are given (then its
    # battle is fought as a departed player's, and asks it nothing more), or only after.
    LEAVES_BEFORE_ANSWERING: ClassVar[bool] = False
    # The attributes of a class's own state, plain data or StateParts: each class of a game
    # declares its own; the kernel's are below, and `state_names` collects them all.
    _STATE: ClassVar[tuple[str, ...]] = ()
    _KERNEL_STATE: ClassVar[tuple[str, ...]] = (
        "seq",
        "eliminated",
        "resigned",
        "round",
        "current",
        "prompt_stack",
        "time_expired",
        "winner",
        "end_reason",
    )
    _STATE_NAMES: ClassVar[tuple[str, ...]] = _KERNEL_STATE
    # What a game may define (the docstring above says which it must): the kernel's members
    # that are not final (tests/unit/test_kernel_hooks.py holds every game to it).
    HOOKS: ClassVar[frozenset[str]] = frozenset(
        (
            *("_deal", "_turn_actions", "turn_order", "points", "space_views"),
            *("_prompt_answers", "_leave_turn", "_check_options", "_start_state"),
            *("_prompt_default", "_out_of_turn_actions", "_after_action", "_leaving"),
            *("_before_finish", "_revealed_at_end", "_snapshot_more", "_restore_more"),
            *("turn_key", "territories_held", "armies_of", "hand", "card_face", "deck_size"),
            *("private_state", "armies_to_place", "secret_objective", "state_view"),
            "pieces_to_place",
        )
    )

    # Each kind of action this game plays, with the method that applies it (`handles`).
    _HANDLERS: ClassVar[dict[type[a.Action], Handler]] = {}
    _ACTS_AFTER: ClassVar[bool] = False  # whether the game defines `_after_action`
    # The random streams of the action being applied (`_random`), by salt.
    _stream: DerivedRandom
    _stream_number: int
    _salted: dict[bytes, tuple[int, DerivedRandom]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names = list(Kernel._KERNEL_STATE)
        handled: dict[type[a.Action], Handler] = {}
        for klass in reversed(cls.__mro__):
            for name in klass.__dict__.get("_STATE", ()):
                if name in names:
                    raise TypeError(f"{cls.__name__}: {name!r} is declared state twice")
                names.append(name)
            for name, member in vars(klass).items():
                for kind in getattr(member, "__handles__", ()):
                    handled[kind] = getattr(cls, name)  # the game's own, if it redefines it
        cls._STATE_NAMES = tuple(names)
        cls._ACTS_AFTER = cls._after_action is not Kernel._after_action
        declared = list(a.ACTION_TYPES.values())  # the kinds in the order they were declared
        cls._HANDLERS = dict(sorted(handled.items(), key=lambda item: declared.index(item[0])))

    def __init__(
        self,
        ruleset: Ruleset,
        players: Sequence[str],
        options: GameOptions | None = None,
        *,
        seed: bytes,
        colours: Sequence[str] | None = None,
        rules_revision: int | None = None,
    ) -> None:
        """`rules_revision`: the revision of the rules the game plays by, the newest if None
        (a new game); a saved game is rebuilt with the one it was created under."""
        options = self.OPTIONS_CLASS() if options is None else options
        chosen = self._check_table(ruleset, players, options, colours)
        if not seed:
            raise InvalidOptions("the seed must not be empty")
        newest = self.current_rules_revision()
        revision = newest if rules_revision is None else rules_revision
        if revision not in self.RULES_REVISIONS:
            raise InvalidOptions(
                f"{type(self).__name__} has rules revisions 1 to {newest}, not {revision}"
            )

        self.ruleset = ruleset
        self.board = ruleset.board
        self.options = options
        self.players = tuple(players)
        self.colours = chosen
        self.seed = seed
        self.commitment = commitment(seed)
        self.rules_revision = revision
        self.seq = 0  # the number of actions applied
        self.eliminated: list[bool] = [False] * len(players)
        self.resigned: list[bool] = [False] * len(players)
        self.phase = Phase.SETUP
        self.round = 0
        self.current = 0
        self.prompt_stack: list[list[Any]] = []  # OpenPrompt.to_plain(), the last one on top
        self.time_expired = False  # the game's time limit has passed, in games that have one
        self.winner: int | None = None
        self.end_reason: str | None = None
        self.ranking: tuple[tuple[int, int, int], ...] = ()
        self._start_state()

        self._forget_streams()
        self.seq = -1  # the deal draws from stream 0, as an action from stream seq + 1
        self.initial_events: list[e.Event] = self._deal(self._random())
        self.seq = 0

    @final
    def _check_table(
        self,
        ruleset: Ruleset,
        players: Sequence[str],
        options: GameOptions,
        colours: Sequence[str] | None,
    ) -> tuple[str, ...]:
        """The colours of the players, once the rules, the options, the number of players and
        their colours are found to be this game's (InvalidOptions otherwise)."""
        game = type(self).__name__
        if not isinstance(ruleset, self.RULESET_CLASS):
            raise InvalidOptions(f"{game} plays by a {self.RULESET_CLASS.__name__}")
        if not isinstance(options, self.OPTIONS_CLASS):
            raise InvalidOptions(f"{game} takes {self.OPTIONS_CLASS.__name__}")
        chosen = ruleset.seat_colours(len(players), colours)
        self._check_options(ruleset, options)
        return chosen

    # ------------------------------------------------------------------ what a game defines

    @final
    @classmethod
    def current_rules_revision(cls) -> int:
        """The revision of the rules a new game plays by."""
        return max(cls.RULES_REVISIONS)

    def _check_options(self, ruleset: Ruleset, options: GameOptions) -> None:
        """Refuse options this game cannot play (InvalidOptions)."""

    def _start_state(self) -> None:
        """Create the game's own state, before the deal."""

    def _deal(self, rng: DerivedRandom) -> list[e.Event]:
        """Set the board up and start the game: the events of that."""
        raise NotImplementedError

    def _turn_actions(self, seat: int) -> list[LegalAction]:
        """The legal actions of the seat in turn, when no prompt is open."""
        raise NotImplementedError

    def _prompt_answers(self, prompt: OpenPrompt) -> LegalAction:
        """The answers `prompt` allows (a game with prompts defines this)."""
        raise NotImplementedError

    def _prompt_default(self, prompt: OpenPrompt, answers: LegalAction) -> a.Action:
        """The answer given for `prompt` if its seat never gives one: the family's ready one,
        unless the game says otherwise."""
        return answers.ready()

    def _out_of_turn_actions(self, seat: int) -> list[LegalAction]:
        """What `seat` may do while the game waits for another seat, and no prompt is open
        (RisiKo! Più's standing orders and hidden armies); nothing by default."""
        return []

    def _after_action(self, seat: int | None, action: a.Action) -> None:
        """Once `seat`'s action is applied, before its number is counted: what lasts only
        until the next action ends here (S.P.Q.RisiKo!'s naval combat that may go on)."""

    def _leaving(self, seat: int) -> list[e.Event]:
        """`seat` resigns (found to be a seat still playing): what its leaving changes first,
        and the events of that, told before PlayerResigned."""
        return []

    def _leave_turn(self, seat: int) -> list[e.Event]:
        """`seat`, in turn, has resigned and answered what it owed: end its turn (a game that
        allows resigning in turn defines this)."""
        raise NotImplementedError

    def points(self, seat: int) -> int:
        """Ranking points at the end (the game's own scoring)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ reads every game answers

    @final
    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @final
    @property
    def seat_to_act(self) -> int | None:
        """The seat whose action the game waits for: the one owing the top prompt, if any,
        else the one in turn."""
        if self.phase is Phase.OVER:
            return None
        if self.prompt_stack:
            return int(self.prompt_stack[-1][0])
        return self.current

    @property
    def turn_key(self) -> tuple[int, ...]:
        """What tells one turn from the next (with `current`): a game clock gives each turn
        its own time. A game whose round has phases played by every seat in turn adds them."""
        return (self.round,)

    @final
    def least_action(self, seat: int) -> a.Action:
        """What `seat`, to act, does when its time has run out and it is to do the least the
        rules allow: the default answer to a prompt, else the end of its turn when that is
        allowed, else the ready member of its first legal family (placing the armies it must
        place, moving in the armies it must move)."""
        prompts = self.prompts()
        if prompts:
            return prompts[0].default
        families = self.legal_actions(seat)
        for family in families:
            if family.kind == a.EndTurn.kind:
                return family.ready()
        return families[0].ready()

    @final
    def open_prompt(self) -> OpenPrompt | None:
        """The decision the game waits for out of turn, if any (the top of the stack)."""
        return OpenPrompt.from_plain(self.prompt_stack[-1]) if self.prompt_stack else None

    @final
    def prompts(self) -> list[Prompt]:
        """The decisions owed out of turn, each with its answers and its default answer; the
        one the game waits for first."""
        prompts = []
        for plain in reversed(self.prompt_stack):
            prompt = OpenPrompt.from_plain(plain)
            answers = self._prompt_answers(prompt)
            prompts.append(Prompt(prompt.seat, answers, self._prompt_default(prompt, answers)))
        return prompts

    @final
    def legal_actions(self, seat: int | None) -> list[LegalAction]:
        """Every family of actions `seat` may submit now. Each family states its ranges."""
        if self.phase is Phase.OVER or seat is None:
            return []
        prompt = self.open_prompt()
        if prompt is not None:
            return [self._prompt_answers(prompt)] if seat == prompt.seat else []
        if seat != self.current:
            return self._out_of_turn_actions(seat)
        return self._turn_actions(seat)

    @final
    @property
    def action_types(self) -> tuple[type[a.Action], ...]:
        """Every kind of action this game plays (a seat's, the clock's, leaving)."""
        return tuple(self._HANDLERS)

    @final
    def active_seats(self) -> list[int]:
        """Seats still playing: neither eliminated nor resigned."""
        eliminated = self.eliminated
        resigned = self.resigned
        if not any(eliminated) and not any(resigned):  # most of a game: nobody out yet
            return list(range(len(eliminated)))
        return [seat for seat, out in enumerate(eliminated) if not out and not resigned[seat]]

    # ------------------------------------------------------------------ applying actions

    @final
    def apply(self, seat: int | None, action: a.Action) -> list[e.Event]:
        """Apply one action for `seat` (None: the game's clock). Raises, changing nothing,
        if the rules do not allow it."""
        if self.phase is Phase.OVER:
            raise GameOver("the game is over")
        handler = self._HANDLERS.get(type(action))
        if handler is None:
            raise InvalidAction(f"{type(action).__name__} is not an action of this game")
        if self.prompt_stack and action.by_seat:
            # Only the answer, from the seat that owes it (the handler checks the rest); the
            # seat in turn is told its turn waits, the others that it is not theirs.
            prompt = OpenPrompt.from_plain(self.prompt_stack[-1])
            if action.kind == self._prompt_answers(prompt).kind:
                if seat != prompt.seat:
                    raise NotYourTurn(f"the {prompt.topic} waits for another player's answer")
            elif seat == self.current:
                raise WrongPhase(f"the {prompt.topic} waits for an answer first")
            else:
                raise NotYourTurn("it is not your turn")
        try:
            events = handler(self, seat, action)
        except BaseException:
            self._forget_streams()  # a refused action leaves no stream half drawn
            raise
        if self._ACTS_AFTER:
            self._after_action(seat, action)
        self.seq += 1
        return events

    @final
    def _random(self, salt: bytes = b"") -> DerivedRandom:
        """The random stream of the action being applied (of the deal, before any): every
        die, shuffle and draw of an action comes from it, keyed by the seed (and `salt`, for
        a stream of its own) over the action's number, so a game replays from its seed and
        its log. The same stream for the whole action, drawn on where the last use stopped."""
        number = self.seq + 1
        if salt:
            known = self._salted.get(salt)
            if known is None or known[0] != number:
                known = self._salted[salt] = (number, DerivedRandom(self.seed + salt, number))
            return known[1]
        if self._stream_number != number:
            self._stream = DerivedRandom(self.seed, number)
            self._stream_number = number
        return self._stream

    @final
    def _forget_streams(self) -> None:
        """No stream is kept for the next action (a copy's, or after a refused action)."""
        self._stream = DerivedRandom(self.seed, 0)
        self._stream_number = -1  # no action's: the next `_random` draws a fresh stream
        self._salted = {}

    @final
    @handles(a.ExpireTime)
    def _expire_time(self, seat: int | None, action: a.ExpireTime) -> list[e.Event]:
        """The game's clock: its time limit has passed (the round under way is completed)."""
        if seat is not None:
            raise NotYourTurn("only the game's clock can declare the time limit reached")
        if self.options.time_limit_minutes is None:
            raise OptionDisabled("this game has no time limit")
        if self.time_expired:
            raise TimeAlreadyExpired("the time limit has already been reached")
        self.time_expired = True
        return [e.TimeExpired(self.round)]

    @final
    def _limit_reached(self) -> str | None:
        """Why the game ends as its round ends, if it does: the time limit has passed, or
        the last round allowed is played."""
        if self.time_expired:
            return "time_limit"
        limit = self.options.round_limit
        if limit is not None and self.round >= limit:
            return "round_limit"
        return None

    @final
    def _push_prompt(self, prompt: OpenPrompt) -> None:
        self.prompt_stack.append(prompt.to_plain())

    @final
    def _pop_prompt(self) -> OpenPrompt:
        return OpenPrompt.from_plain(self.prompt_stack.pop())

    @final
    @handles(a.Resign)
    def _resign(self, seat: int | None, action: a.Resign) -> list[e.Event]:
        """A player leaves the game: the prompts it owes get their default answers, its turns
        are skipped (its units stay, and a game may end its turn: `_leave_turn`), and the
        last player still playing wins."""
        if seat is None or not 0 <= seat < len(self.players):
            raise NotYourTurn("only a seat of the game can resign")
        if self.eliminated[seat] or self.resigned[seat]:
            raise WrongPhase("this player is no longer in the game")
        events: list[e.Event] = [*self._leaving(seat), e.PlayerResigned(seat)]
        if self.LEAVES_BEFORE_ANSWERING:
            self.resigned[seat] = True
        while self.prompt_stack and self.prompt_stack[-1][0] == seat and not self.is_over:
            prompt = OpenPrompt.from_plain(self.prompt_stack[-1])
            default = self._prompt_default(prompt, self._prompt_answers(prompt))
            events += self._HANDLERS[type(default)](self, seat, default)
        self.resigned[seat] = True
        if self.is_over:
            return events
        active = self.active_seats()
        if len(active) <= 1:
            return events + self._finish(active[0] if active else None, "last_player")
        if seat != self.current:
            return events
        return events + self._leave_turn(seat)

    # ------------------------------------------------------------------ the end

    def _before_finish(self) -> list[e.Event]:
        """What the game completes as it ends (a conquest still to occupy)."""
        return []

    def _revealed_at_end(self) -> tuple[str, ...]:
        """The secrets shown to everyone when the game ends (the objective cards)."""
        return ()

    @final
    def _finish(self, winner: int | None, reason: str) -> list[e.Event]:
        events = self._before_finish()
        self.phase = Phase.OVER
        self.winner = winner
        self.end_reason = reason
        self.prompt_stack = []
        order = self.turn_order  # a round's order may leave out the seats out of the game
        seats = [*order, *(seat for seat in range(len(self.players)) if seat not in order)]
        points = {seat: self.points(seat) for seat in seats}
        ranking = rank(seats, points, winner, self.resigned)
        self.ranking = tuple(ranking)
        return [*events, e.GameEnded(winner, reason, self.ranking, self._revealed_at_end())]
