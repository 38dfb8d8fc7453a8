"""A tournament as the store keeps it: its settings, entrants, rounds with their tables and
games, and each game's result; written whole, under a version (api/stores/tournaments.py).

The standings are not stored: they follow from the results (`standings`), so nothing can
make them disagree."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any

from competition.pairing import Entrant, Seating
from competition.record import describe
from competition.results import GameResult, PlayerResult, Presence
from competition.standings import Standings
from competition.tables import TableRule


class TournamentStatus(enum.StrEnum):
    REGISTERING = "registering"  # entries open until the close time (or the organiser closes)
    CLOSED = "closed"  # entries closed, no round started yet
    PLAYING = "playing"  # a round started; late entries only by the organiser, between rounds
    FINISHED = "finished"  # every round played


@dataclass(frozen=True, slots=True)
class TableRecord:
    game: str  # the table's game id (derived: the same on every instance)
    players: tuple[str, ...]  # account ids in seat order
    result: GameResult | None = None  # recorded once, when the game ends


@dataclass(frozen=True, slots=True)
class RoundRecord:
    number: int  # from 1
    tables: tuple[TableRecord, ...]
    started_at: float
    # What its seating was computed from, for its description (competition/record.py): who
    # played it, in the order of the standings then, with their points; and the tables' cost.
    # None in a round seated before descriptions were kept.
    entrants: tuple[Entrant, ...] | None = None
    repeats: int = 0
    spread: int = 0

    @property
    def ended(self) -> bool:
        return all(table.result is not None for table in self.tables)


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    id: str
    name: str
    variant: str
    rounds: int  # how many rounds it plays
    table_rule: TableRule
    time_limit_minutes: int  # each game's time limit
    clock: dict[str, Any] | None  # each game's time control (api/clock.py's plain form)
    registration_closes_at: float
    admits: str  # an Admits value: people, bots or both
    organiser: str  # the creating account's id
    seed: bytes  # secret until the tournament ends; its commitment is public
    commitment: str
    created_at: float
    status: TournamentStatus = TournamentStatus.REGISTERING
    entrants: tuple[str, ...] = ()  # the accounts registered now, in the order they came
    played: tuple[RoundRecord, ...] = ()
    version: int = 1
    removed: tuple[str, ...] = field(default=())  # removed by the organiser: not re-entered
    round_limit: int | None = None  # each game's round limit, if it has one
    # The options the organiser chose among the game's tournament options (TournamentPlay).
    options: dict[str, Any] = field(default_factory=dict)
    # The schedule: round N+1 starts as soon as the last game of round N is counted.
    start_automatically: bool = False

    @property
    def current(self) -> RoundRecord | None:
        return self.played[-1] if self.played else None

    def next_version(self, **changes: Any) -> TournamentRecord:
        return replace(self, version=self.version + 1, **changes)

    def results(self) -> list[GameResult]:
        return [
            table.result
            for round_ in self.played
            for table in round_.tables
            if table.result is not None
        ]

    @property
    def revealed_seed(self) -> str | None:
        """The seed (hex) once the tournament is over, for anyone to check the rounds; None
        before, for everyone."""
        return self.seed.hex() if self.status is TournamentStatus.FINISHED else None

    def description(self, round_: RoundRecord) -> dict[str, Any] | None:
        """The round's published description (`record.describe`), rebuilt from what is
        stored: its entrants and costs, its tables, and the rounds before; None for a round
        seated before the entrants were kept."""
        if round_.entrants is None:
            return None
        before = self.played[: round_.number - 1]
        history = [[table.players for table in past.tables] for past in before]
        tables = tuple(table.players for table in round_.tables)
        seating = Seating(round_.number, tables, round_.repeats, round_.spread)
        return describe(self.commitment, self.table_rule, round_.entrants, history, seating)

    def standings(self) -> Standings:
        """Recomputed from the results, with every entrant and every player who played."""
        return Standings.from_results(self.seed, self.entrants, self.results())

    def to_plain(self) -> dict[str, Any]:
        rule = self.table_rule
        return {
            "id": self.id,
            "name": self.name,
            "variant": self.variant,
            "rounds": self.rounds,
            "table_rule": [rule.minimum, rule.preferred, rule.maximum],
            "time_limit_minutes": self.time_limit_minutes,
            "round_limit": self.round_limit,
            "options": self.options,
            "start_automatically": self.start_automatically,
            "clock": self.clock,
            "registration_closes_at": self.registration_closes_at,
            "admits": self.admits,
            "organiser": self.organiser,
            "seed": self.seed.hex(),
            "commitment": self.commitment,
            "created_at": self.created_at,
            "status": self.status.value,
            "entrants": list(self.entrants),
            "removed": list(self.removed),
            "played": [_round_plain(round_) for round_ in self.played],
            "version": self.version,
        }

    @classmethod
    def from_plain(cls, data: dict[str, Any]) -> TournamentRecord:
        minimum, preferred, maximum = data["table_rule"]
        return cls(
            id=data["id"],
            name=data["name"],
            variant=data["variant"],
            rounds=data["rounds"],
            table_rule=TableRule(minimum, preferred, maximum),
            time_limit_minutes=data["time_limit_minutes"],
            round_limit=data.get("round_limit"),
            options=data.get("options", {}),
            start_automatically=data.get("start_automatically", False),
            clock=data["clock"],
            registration_closes_at=data["registration_closes_at"],
            admits=data["admits"],
            organiser=data["organiser"],
            seed=bytes.fromhex(data["seed"]),
            commitment=data["commitment"],
            created_at=data["created_at"],
            status=TournamentStatus(data["status"]),
            entrants=tuple(data["entrants"]),
            removed=tuple(data["removed"]),
            played=tuple(_round(plain) for plain in data["played"]),
            version=data["version"],
        )


def _round_plain(round_: RoundRecord) -> dict[str, Any]:
    described = {}
    if round_.entrants is not None:
        described = {
            "entrants": [[entrant.player, entrant.points] for entrant in round_.entrants],
            "repeats": round_.repeats,
            "spread": round_.spread,
        }
    return {
        "number": round_.number,
        "started_at": round_.started_at,
        **described,
        "tables": [
            {
                "game": table.game,
                "players": list(table.players),
                "result": None if table.result is None else _result_plain(table.result),
            }
            for table in round_.tables
        ],
    }


def _round(data: dict[str, Any]) -> RoundRecord:
    tables = tuple(
        TableRecord(
            plain["game"],
            tuple(plain["players"]),
            None if plain["result"] is None else _result(plain["game"], plain["result"]),
        )
        for plain in data["tables"]
    )
    entrants = data.get("entrants")
    return RoundRecord(
        data["number"],
        tables,
        data["started_at"],
        None if entrants is None else tuple(Entrant(p, points) for p, points in entrants),
        data.get("repeats", 0),
        data.get("spread", 0),
    )


def _result_plain(result: GameResult) -> list[dict[str, Any]]:
    return [
        {
            "player": line.player,
            "points": line.points,
            "rank": line.rank,
            "objective": line.objective,
            "presence": line.presence.value,
        }
        for line in result.players
    ]


def _result(game: str, lines: list[dict[str, Any]]) -> GameResult:
    players = tuple(
        PlayerResult(
            line["player"],
            line["points"],
            line["rank"],
            line["objective"],
            Presence(line["presence"]),
        )
        for line in lines
    )
    return GameResult(game, players)
