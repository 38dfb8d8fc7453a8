"""Every kind of event is registered, described and typed, and says who may read it; stored
data reads back typed and writes back byte for byte (the golden logs' every event, and the
lobby's events in the shapes stored before their fields grew); data this server cannot read is
kept as it was; and each game reads a kind's name as its own kind."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, ClassVar

import pytest

import api.clock
import api.lobby_events  # noqa: F401  (the lobby's events)
from api.event_kinds import UnknownEvent, kinds_of, owner, served_kinds
from api.lobby_events import GameCreated
from api.stores.codec import typed
from domain import events as e
from domain.actions import doc
from variants import VARIANTS
from variants.futurisiko import events as futurisiko_events
from variants.skirmish import VARIANT as SKIRMISH
from variants.skirmish import events as skirmish_events

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
# The kinds private to one seat, and the field naming it, as the stores have always kept them
# (`visible_to`, which their queries filter on): a change here changes stored data.
PRIVATE = {
    "ObjectiveAssigned": "seat",
    "ObjectiveChanged": "seat",
    "CardsReceived": "seat",
    "CardDiscarded": "seat",
    "HiddenTerritoryChosen": "seat",
    "SpyReport": "seat",
    "CardLost": "seat",
    "StandingOrdersSet": "seat",
}


def declared(cls: type[e.Event]) -> set[type[e.Event]]:
    """The kinds of event a module of the project declares (a slotted dataclass is a class
    made anew: the one the module holds, not the one it was made from)."""
    found = set()
    for sub in cls.__subclasses__():
        module = sys.modules[sub.__module__]
        if getattr(module, sub.__name__, None) is sub and not sub.__module__.startswith("tests"):
            found.add(sub)
        found |= declared(sub)
    return found


def test_every_kind_of_event_is_registered() -> None:
    assert declared(e.Event) - {UnknownEvent} == set(e.EVENT_TYPES)


@pytest.mark.parametrize("cls", e.EVENT_TYPES, ids=lambda cls: f"{cls.__module__}.{cls.__name__}")
def test_every_kind_is_described(cls: type[e.Event]) -> None:
    assert cls.__doc__
    assert not cls.__doc__.startswith(f"{cls.__name__}(")
    assert all(f.metadata.get("doc") for f in fields(cls))


def test_who_may_read_each_kind_is_as_the_stores_keep_it() -> None:
    private = {cls.__name__: cls.readers.seat_field for cls in e.EVENT_TYPES if cls.readers.private}
    assert private == PRIVATE
    card = e.CardsReceived(2, ("c1",))
    assert (card.visible_to, card.private, card.is_visible_to(1)) == (2, True, False)
    rolled = e.DiceRolled(1, "a", "b", (6,), (5,), 0, 1)
    assert (rolled.visible_to, rolled.private, rolled.is_visible_to(None)) == (None, False, True)


def test_an_undescribed_kind_or_a_reader_it_cannot_name_is_refused() -> None:
    @dataclass(frozen=True, slots=True)
    class Undescribed(e.Event):
        seat: int = doc("A seat.")

    @dataclass(frozen=True, slots=True)
    class UndescribedField(e.Event):
        """Something happened."""

        seat: int

    @dataclass(frozen=True, slots=True)
    class Nameless(e.Event):
        """Private to a seat it does not name."""

        readers: ClassVar[e.Readers] = e.private_to("seat")
        player: int = doc("A seat.")

    for cls in (Undescribed, UndescribedField, Nameless):
        with pytest.raises(TypeError):
            e.register_event(cls)
        assert cls not in e.EVENT_TYPES


def golden_events() -> list[tuple[str, dict[str, Any]]]:
    """(variant, stored event) for every event of every golden log."""
    found = []
    for path in sorted(GOLDEN.glob("*.jsonl")):
        header, *entries = (json.loads(line) for line in path.read_text("utf-8").splitlines())
        for events in [header["events"], *(entry["events"] for entry in entries)]:
            found += [(header["variant"], event) for event in events]
    return found


def test_every_stored_event_of_the_golden_logs_reads_back_typed_and_writes_back_as_it_was() -> None:
    events = golden_events()
    assert len(events) > 10_000
    for variant, data in events:
        event = typed(variant, data)
        assert not isinstance(event, UnknownEvent), (variant, data)
        assert json.dumps(event.to_dict()) == json.dumps(data)
        seat_field = PRIVATE.get(data["type"])
        assert event.visible_to == (None if seat_field is None else data[seat_field])


def test_the_lobbys_events_read_back_in_every_shape_they_were_stored_in() -> None:
    oldest = {"type": "GameCreated", "variant": "classic", "options": {}, "commitment": "c0"}
    revised = {**oldest, "rules_revision": 1}
    now = {**revised, "seed_chosen": False, "time_control": {"turn_seconds": 60.0}}
    for data in (oldest, revised, now):
        event = typed("classic", data)
        assert isinstance(event, GameCreated)
        assert json.dumps(event.to_dict()) == json.dumps(data)
    assert typed("classic", oldest) == GameCreated("classic", {}, "c0", None, None, None)
    untimed = GameCreated("classic", {}, "c0", 2, True, None)
    assert "time_control" not in untimed.to_dict()  # as the service always wrote it


def test_what_this_server_cannot_read_is_kept_as_it_was() -> None:
    unknown = {"type": "ComesFromTomorrow", "seat": 1, "what": ["x"]}
    misshapen = {"type": "DiceRolled", "seat": 1}  # a kind of another shape
    for data in (unknown, misshapen):
        event = typed("classic", data)
        assert isinstance(event, UnknownEvent)
        assert (event.type, event.to_dict()) == (data["type"], data)


def test_each_game_reads_a_name_as_its_own_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(VARIANTS, SKIRMISH.name, SKIRMISH)
    assert kinds_of("futurisiko")["PhaseTurnStarted"] is futurisiko_events.PhaseTurnStarted
    assert kinds_of("skirmish")["PhaseTurnStarted"] is skirmish_events.PhaseTurnStarted
    assert "PhaseTurnStarted" not in kinds_of("classic")
    for variant in ("classic", "skirmish"):  # the domain's and the service's, in every game
        assert {"DiceRolled", "GameCreated", "ClockChanged"} <= set(kinds_of(variant))
    data = {"type": "PhaseTurnStarted", "seat": 0, "round": 1, "phase": "muster"}
    read = typed("skirmish", {**data, "recruit_points": 3})
    assert isinstance(read, skirmish_events.PhaseTurnStarted)
    assert isinstance(typed("futurisiko", {**data, "recruit_points": 3}), UnknownEvent)
    assert owner(skirmish_events.Marched) is SKIRMISH
    assert (SKIRMISH, skirmish_events.Marched) in served_kinds()


def test_a_game_not_served_has_no_kinds_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(VARIANTS, SKIRMISH.name, raising=False)
    assert owner(skirmish_events.Marched) is None
    assert all(cls.__module__ != skirmish_events.__name__ for _, cls in served_kinds())
