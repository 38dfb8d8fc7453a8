"""The kernel every game stands on: no rule of any game, only what they all share.

A game holds its whole state and changes it only through `apply(seat, action)`, which returns
the events the action caused or raises a `RuleViolation` having changed nothing. The kernel
gives every game: the seats and their colours, the seed and its commitment, the sequence number
of actions, dispatch of an action to the game's handler, the prompt stack (decisions owed out
of turn, each with a default), copies, snapshots with a declared state and a format version,
the revision of its rules a game plays by, resignation, the end of the game and its ranking.
What the game adds is its state, its handlers and its legal actions; `domain.game.Game` is
classic RisiKo!, and `variants/` hold the others.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from domain import actions as a
from domain import events as e
from domain.cards import Card
from domain.errors import (
    GameOver,
    InvalidAction,
    InvalidOptions,
    NotYourTurn,
    SnapshotFormatError,
    WrongPhase,
)
from domain.flow import OpenPrompt, Phase
from domain.legal import LegalAction
from domain.objectives import Objective
from domain.options import GameOptions
from domain.rng import DerivedRandom, commitment
from domain.ruleset import Ruleset
from domain.views import ARMY, Prompt, SpaceView, StateView

Handler = Callable[[int | None, Any], list[e.Event]]


class StatePart:
    """A part of a game's state kept in an object of its own (the forces on the board): it
    copies itself, and turns into plain data and back, so clones and snapshots share nothing."""

    def copy(self) -> StatePart:
        raise NotImplementedError

    def to_plain(self) -> Any:
        raise NotImplementedError

    def load(self, plain: Any) -> None:
        """Take the state of `to_plain`'s data, in place."""
        raise NotImplementedError


def copy_plain(value: Any) -> Any:
    """A copy of plain data (lists of lists of scalars), so snapshots share nothing."""
    if isinstance(value, list):
        return [copy_plain(item) for item in value]
    if isinstance(value, StatePart):
        return value.copy()
    return value


def _to_plain(value: Any) -> Any:
    return value.to_plain() if isinstance(value, StatePart) else copy_plain(value)


class Kernel:
    """One game of any variant. Create it with the players' names; it deals and starts at once
    (`initial_events` says what the deal did)."""

    # What its board can show (domain/views.py): the kinds of unit and of marker.
    UNIT_KINDS: ClassVar[tuple[str, ...]] = (ARMY,)
    MARKER_KINDS: ClassVar[tuple[str, ...]] = ()
    neutral_colours: tuple[str, ...] = ()  # colours no seat plays, in the games that have them

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
    # The attributes that make the state, plain data all (a game adds its own).
    _STATE: tuple[str, ...] = ()

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
        game = type(self).__name__
        if not isinstance(ruleset, self.RULESET_CLASS):
            raise InvalidOptions(f"{game} plays by a {self.RULESET_CLASS.__name__}")
        if not isinstance(options, self.OPTIONS_CLASS):
            raise InvalidOptions(f"{game} takes {self.OPTIONS_CLASS.__name__}")
        count = len(players)
        if not ruleset.min_players <= count <= ruleset.max_players:
            raise InvalidOptions(
                f"this game needs {ruleset.min_players} to {ruleset.max_players} players, "
                f"not {count}"
            )
        known_colours = [colour.id for colour in ruleset.colours]
        chosen = list(colours) if colours is not None else known_colours[:count]
        if len(chosen) != count or len(set(chosen)) != count:
            raise InvalidOptions("every player needs a different colour")
        for colour in chosen:
            if colour not in known_colours:
                raise InvalidOptions(f"unknown colour {colour!r}: use one of {known_colours}")
        self._check_options(ruleset, options)
        if not seed:
            raise InvalidOptions("the seed must not be empty")
        newest = self.current_rules_revision()
        revision = newest if rules_revision is None else rules_revision
        if revision not in self.RULES_REVISIONS:
            raise InvalidOptions(f"{game} has rules revisions 1 to {newest}, not {revision}")

        self.ruleset = ruleset
        self.board = ruleset.board
        self.options = options
        self.players = tuple(players)
        self.colours = tuple(chosen)
        self.seed = seed
        self.commitment = commitment(seed)
        self.rules_revision = revision
        self.seq = 0  # the number of actions applied
        self.eliminated: list[bool] = [False] * count
        self.resigned: list[bool] = [False] * count
        self.phase = Phase.SETUP
        self.round = 0
        self.current = 0
        self.prompt_stack: list[list[Any]] = []  # OpenPrompt.to_plain(), the last one on top
        self.time_expired = False  # the game's time limit has passed, in games that have one
        self.winner: int | None = None
        self.end_reason: str | None = None
        self.ranking: tuple[tuple[int, int, int], ...] = ()
        self._start_state()

        self._handlers = self._bind_handlers()
        self.initial_events: list[e.Event] = self._deal(DerivedRandom(seed, 0))

    # ------------------------------------------------------------------ what a game defines

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

    def _bind_handlers(self) -> dict[type[a.Action], Handler]:
        """Each kind of action this game plays, with the method that applies it."""
        return {a.Resign: self._resign}

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

    def _leave_turn(self, seat: int) -> list[e.Event]:
        """`seat`, in turn, has resigned: end its turn (a game that allows resigning in turn
        defines this)."""
        raise NotImplementedError

    @property
    def turn_order(self) -> tuple[int, ...]:
        """The seats in the order they play (this round's, in games that draw it each round)."""
        raise NotImplementedError

    def points(self, seat: int) -> int:
        """Ranking points at the end (the game's own scoring)."""
        raise NotImplementedError

    def space_views(self) -> list[SpaceView]:
        """Every space as any client may draw it (domain/views.py)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ reads every game answers

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

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

    def open_prompt(self) -> OpenPrompt | None:
        """The decision the game waits for out of turn, if any (the top of the stack)."""
        return OpenPrompt.from_plain(self.prompt_stack[-1]) if self.prompt_stack else None

    def prompts(self) -> list[Prompt]:
        """The decisions owed out of turn, each with its answers and its default answer; the
        one the game waits for first."""
        prompts = []
        for plain in reversed(self.prompt_stack):
            prompt = OpenPrompt.from_plain(plain)
            answers = self._prompt_answers(prompt)
            prompts.append(Prompt(prompt.seat, answers, self._prompt_default(prompt, answers)))
        return prompts

    def legal_actions(self, seat: int | None) -> list[LegalAction]:
        """Every family of actions `seat` may submit now. Each family states its ranges."""
        if self.phase is Phase.OVER or seat is None:
            return []
        prompt = self.open_prompt()
        if prompt is not None:
            return [self._prompt_answers(prompt)] if seat == prompt.seat else []
        if seat != self.current:
            return []
        return self._turn_actions(seat)

    @property
    def action_types(self) -> tuple[type[a.Action], ...]:
        """Every kind of action this game plays (a seat's, the clock's, leaving)."""
        return tuple(self._handlers)

    def active_seats(self) -> list[int]:
        """Seats still playing: neither eliminated nor resigned."""
        return [
            seat
            for seat, (eliminated, resigned) in enumerate(
                zip(self.eliminated, self.resigned, strict=True)
            )
            if not eliminated and not resigned
        ]

    def territories_held(self, seat: int) -> int:
        return sum(1 for view in self.space_views() if view.owner == seat)

    def armies_of(self, seat: int) -> int:
        return sum(view.count(ARMY, seat) for view in self.space_views())

    def hand(self, seat: int) -> Sequence[str]:
        """The card ids `seat` holds (private to that seat)."""
        return ()

    def card_face(self, card_id: str) -> Card:
        """What a card of this game shows its holder: by default the ruleset's territory and
        set cards; a game whose cards are of another kind says what its own show."""
        return self.ruleset.cards.cards[card_id]

    def deck_size(self) -> int:
        return 0

    def private_state(self, seat: int) -> tuple[tuple[str, str], ...]:
        """What `seat` alone knows of its own beyond its hand and objective, by name (RisiKo!
        Più: the hidden armies' territory, its standing orders)."""
        return ()

    def armies_to_place(self) -> int:
        """Armies the seat in turn still has to place."""
        return 0

    def secret_objective(self, seat: int) -> tuple[str, Objective] | None:
        """The objective card `seat` was dealt and the objective it counts as, in the games
        that have secret objectives (private to that seat)."""
        return None

    def state_view(self) -> StateView:
        """The game's own public state (`STATE_VIEW`)."""
        return StateView(self.turn_order)

    def victory_points_of(self, seat: int) -> int:
        """Victory points won so far, in the games that score them; 0 in the others."""
        return 0

    def pieces_to_place(self) -> dict[str, int]:
        """Pieces other than armies that the seat in turn has won and must still place, by
        unit or marker kind (armies to place: `armies_to_place`)."""
        return {}

    # ------------------------------------------------------------------ applying actions

    def apply(self, seat: int | None, action: a.Action) -> list[e.Event]:
        """Apply one action for `seat` (None: the game's clock). Raises, changing nothing,
        if the rules do not allow it."""
        if self.phase is Phase.OVER:
            raise GameOver("the game is over")
        handler = self._handlers.get(type(action))
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
        events = handler(seat, action)
        self.seq += 1
        return events

    def _push_prompt(self, prompt: OpenPrompt) -> None:
        self.prompt_stack.append(prompt.to_plain())

    def _pop_prompt(self) -> OpenPrompt:
        return OpenPrompt.from_plain(self.prompt_stack.pop())

    def _resign(self, seat: int | None, action: a.Resign) -> list[e.Event]:
        """A player leaves the game: the prompts it owes get their default answers, its turns
        are skipped, and the last player still playing wins."""
        if seat is None or not 0 <= seat < len(self.players):
            raise NotYourTurn("only a seat of the game can resign")
        if self.eliminated[seat] or self.resigned[seat]:
            raise WrongPhase("this player is no longer in the game")
        events: list[e.Event] = [e.PlayerResigned(seat)]
        while self.prompt_stack and self.prompt_stack[-1][0] == seat and not self.is_over:
            prompt = OpenPrompt.from_plain(self.prompt_stack[-1])
            default = self._prompt_default(prompt, self._prompt_answers(prompt))
            events += self._handlers[type(default)](seat, default)
        self.resigned[seat] = True
        if self.is_over:
            return events
        active = self.active_seats()
        if len(active) <= 1:
            return events + self._finish(active[0] if active else None, "last_player")
        if seat != self.current or self.prompt_stack:
            return events
        return events + self._leave_turn(seat)

    # ------------------------------------------------------------------ copies and snapshots

    def clone(self) -> Kernel:
        """An independent copy, cheap enough to take before every action: the server applies
        an action to a clone and keeps it only once the store has accepted it."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        for name in self._STATE:
            setattr(other, name, copy_plain(getattr(self, name)))
        other._handlers = other._bind_handlers()
        return other

    def snapshot(self) -> dict[str, Any]:
        """The whole mutable state as plain data (JSON-ready), without the seed. A cache:
        the log stays the truth, and `restore` of a snapshot continues the same game."""
        state: dict[str, Any] = {name: _to_plain(getattr(self, name)) for name in self._STATE}
        state["phase"] = self.phase.value
        state["ranking"] = [list(entry) for entry in self.ranking]
        self._snapshot_more(state)
        state["format"] = self.SNAPSHOT_FORMAT
        state["rules_revision"] = self.rules_revision
        return state

    def restore(self, state: dict[str, Any]) -> None:
        """Continue from a snapshot taken of a game with the same players, options, seed and
        rules revision; SnapshotFormatError for one written in another format (older ones have
        none) or of a game played by other rules (one without a revision was played by 1)."""
        if state.get("format") != self.SNAPSHOT_FORMAT:
            raise SnapshotFormatError(
                f"snapshot format {state.get('format')}, this engine's is {self.SNAPSHOT_FORMAT}"
            )
        if state.get("rules_revision", 1) != self.rules_revision:
            raise SnapshotFormatError(
                f"a snapshot of rules revision {state.get('rules_revision', 1)}, "
                f"this game plays by {self.rules_revision}"
            )
        for name in self._STATE:
            part = getattr(self, name)
            if isinstance(part, StatePart):
                part.load(copy_plain(state[name]))
            else:
                setattr(self, name, copy_plain(state[name]))
        self.phase = Phase.of(state["phase"])
        self.ranking = tuple((r[0], r[1], r[2]) for r in state["ranking"])
        self._restore_more(state)

    def _snapshot_more(self, state: dict[str, Any]) -> None:
        """Add the state that is not plain data, as plain data."""

    def _restore_more(self, state: dict[str, Any]) -> None:
        """Read back what `_snapshot_more` wrote."""

    # ------------------------------------------------------------------ the end

    def _before_finish(self) -> list[e.Event]:
        """What the game completes as it ends (a conquest still to occupy)."""
        return []

    def _revealed_at_end(self) -> tuple[str, ...]:
        """The secrets shown to everyone when the game ends (the objective cards)."""
        return ()

    def _finish(self, winner: int | None, reason: str) -> list[e.Event]:
        events = self._before_finish()
        self.phase = Phase.OVER
        self.winner = winner
        self.end_reason = reason
        self.prompt_stack = []
        # The winner first, players who resigned last, the others by points; ties share a rank.
        order = self.turn_order  # a round's order may leave out the seats out of the game
        seats = [*order, *(seat for seat in range(len(self.players)) if seat not in order)]
        ordered = sorted(
            ((self.points(seat), seat) for seat in seats),
            key=lambda item: (item[1] != winner, self.resigned[item[1]], -item[0]),
        )
        ranking: list[tuple[int, int, int]] = []
        for position, (points, seat) in enumerate(ordered):
            previous = ranking[-1] if ranking else None
            tied = (
                previous is not None
                and previous[2] == points
                and previous[1] != winner
                and self.resigned[previous[1]] == self.resigned[seat]
            )
            rank = previous[0] if tied and previous is not None else position + 1
            ranking.append((rank, seat, points))
        self.ranking = tuple(ranking)
        return [*events, e.GameEnded(winner, reason, self.ranking, self._revealed_at_end())]
