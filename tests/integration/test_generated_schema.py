"""The schema's share of what the games register (api/graphql/generated.py): every kind of
action a seat submits is an ActionInput member with the action's own fields, every legal
family a LegalAction type with the family's fields, and a family's ready `input` goes back to
the very action it was made from."""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

import pytest
from graphql import GraphQLInputObjectType, GraphQLObjectType, GraphQLUnionType
from strawberry.utils.str_converters import to_camel_case

from api.event_kinds import UnknownEvent, served_kinds
from api.graphql.event_types import detail_of, type_name
from api.graphql.generated import SEAT_ACTIONS, ready_input, to_action
from api.graphql.inputs import SubmitActionInput  # noqa: F401  (the schema's input types)
from api.graphql.schema import schema
from domain import actions as a
from domain import events as e
from domain import legal as lg
from variants import VARIANTS, served

TYPES = schema._schema.type_map


def test_every_action_a_seat_submits_is_a_member_with_its_fields() -> None:
    action_input = TYPES["ActionInput"]
    assert isinstance(action_input, GraphQLInputObjectType)
    members = action_input.fields
    assert set(members) == {to_camel_case(cls.kind) for cls in SEAT_ACTIONS}
    assert {cls.kind for cls in SEAT_ACTIONS} == {
        kind for kind, cls in a.ACTION_TYPES.items() if cls.by_seat and served(cls)
    }
    assert "resign" not in members
    assert "expireTime" not in members
    for cls in SEAT_ACTIONS:
        member = members[to_camel_case(cls.kind)]
        assert member.description == cls.summary
        if not fields(cls):
            assert str(member.type) == "Boolean"
            continue
        shape = member.type
        assert isinstance(shape, GraphQLInputObjectType)
        assert list(shape.fields) == [to_camel_case(f.name) for f in fields(cls)]
        for field_ in fields(cls):
            assert shape.fields[to_camel_case(field_.name)].description == field_.metadata["doc"]


def test_every_legal_family_is_a_type_of_the_union_with_its_fields() -> None:
    union = TYPES["LegalAction"]
    assert isinstance(union, GraphQLUnionType)
    families = [cls for cls in lg.LEGAL_FAMILIES if served(cls)]
    assert [t.name for t in union.types] == [cls.name for cls in families]
    for cls in families:
        shape = TYPES[cls.name]
        assert isinstance(shape, GraphQLObjectType)
        assert list(shape.fields) == [*(to_camel_case(f.name) for f in fields(cls)), "input"]


class Given:
    """An ActionInput as Strawberry hands it over: members and fields as attributes."""

    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)


def parsed(document: dict[str, Any]) -> Given:
    (member, value), *rest = document.items()
    assert rest == []
    if isinstance(value, dict):
        snake = {name: value[to_camel_case(name)] for name in _fields_of(member)}
        return Given(**{member: Given(**snake)})
    return Given(**{member: value})


def _fields_of(member: str) -> list[str]:
    cls = next(c for c in SEAT_ACTIONS if to_camel_case(c.kind) == member)
    return [f.name for f in fields(cls)]


def test_the_ready_input_of_every_offered_family_is_its_ready_action() -> None:
    """Along games of every variant played at random, each family's `input` names the action
    `ready()` makes, which the family allows; every family the games offer is registered."""
    offered: set[str] = set()
    for variant in VARIANTS.values():
        for seed in (b"generated-1", b"generated-2"):
            game = variant.new_game(["A", "B", "C", "D"], seed=seed)
            rnd = random.Random(seed)
            for _ in range(400):
                if game.is_over:
                    break
                seat = game.seat_to_act
                legal = game.legal_actions(seat)
                for family in legal:
                    offered.add(family.name)
                    assert type(family) in lg.LEGAL_FAMILIES
                    action = family.ready()
                    assert family.allows(action), family
                    assert to_action(parsed(ready_input(action))) == action
                game.apply(seat, rnd.choice(legal).pick(rnd))
    assert {"LegalPlaceArmies", "LegalAttack", "LegalEndTurn", "LegalClaimProvince"} <= offered


@pytest.mark.anyio
async def test_each_variant_names_the_action_input_members_it_takes() -> None:
    result = await schema.execute("{ variants { name actionKinds } }")
    assert result.errors is None
    assert result.data is not None
    kinds = {v["name"]: set(v["actionKinds"]) for v in result.data["variants"]}
    action_input = TYPES["ActionInput"]
    assert isinstance(action_input, GraphQLInputObjectType)
    assert set().union(*kinds.values()) == set(action_input.fields)
    classic = {"placeArmies", "tradeCards", "attack", "attackUntil", "defend", "occupy"}
    assert classic | {"strategicMove", "endTurn"} == kinds["classic"]
    assert {"claimProvince", "navalBattle", "seaAttack", "placeArmies"} <= kinds["spqr"]


def test_a_game_imported_but_not_registered_stays_out_of_the_schema() -> None:
    from variants.skirmish import VARIANT
    from variants.skirmish.actions import Recruit
    from variants.skirmish.legal import LegalRecruit

    assert VARIANT.name not in VARIANTS
    assert not served(Recruit)
    assert not served(LegalRecruit)
    action_input = TYPES["ActionInput"]
    assert isinstance(action_input, GraphQLInputObjectType)
    assert "recruit" not in action_input.fields
    assert "LegalRecruit" not in TYPES
    assert served(a.Attack)


def test_every_games_own_state_is_a_type_of_the_interface_with_its_fields() -> None:
    interface = TYPES["GameState"]
    games = {variant.game_class.STATE_VIEW for variant in VARIANTS.values()}
    assert {cls.name for cls in games} == {
        "ClassicState",
        "SpqrState",
        "PiuState",
        "FutuRisiKoState",
    }
    for cls in games:
        shape = TYPES[cls.name]
        assert isinstance(shape, GraphQLObjectType)
        assert list(shape.interfaces) == [interface]
        assert list(shape.fields) == [to_camel_case(f.name) for f in fields(cls)]
        for field_ in fields(cls):
            assert shape.fields[to_camel_case(field_.name)].description == field_.metadata["doc"]


def test_every_kind_of_event_served_is_a_type_of_the_union_with_its_fields() -> None:
    union = TYPES["GameEventDetail"]
    assert isinstance(union, GraphQLUnionType)
    kinds = served_kinds()
    names = [type_name(variant, cls) for variant, cls in kinds]
    assert [t.name for t in union.types] == [*names, "UnknownEvent"]
    assert {"DiceRolled", "GameCreated", "ClockChanged", "SpqrNeutralPlaced"} <= set(names)
    assert "FuturisikoPhaseTurnStarted" in names
    for (_, cls), name in zip(kinds, names, strict=True):
        shape = TYPES[name]
        assert isinstance(shape, GraphQLObjectType)
        assert shape.description == cls.__doc__
        assert list(shape.fields) == [to_camel_case(f.name) for f in fields(cls)]
        for field_ in fields(cls):
            assert shape.fields[to_camel_case(field_.name)].description == field_.metadata["doc"]
    shown = {
        (name, field): str(TYPES[name].fields[field].type)  # type: ignore[attr-defined]
        for name, field in (
            ("FuturisikoPhaseTurnStarted", "phase"),
            ("BotJoined", "policy"),
            ("GameEnded", "winner"),
            ("GameEnded", "ranking"),
            ("TurnStarted", "fromRegions"),
            ("FuturisikoBattleFought", "volleys"),
            ("ClockChanged", "deadline"),
            ("GameCreated", "options"),
        )
    }
    assert shown == {
        ("FuturisikoPhaseTurnStarted", "phase"): "Phase!",
        ("BotJoined", "policy"): "BotPolicy!",
        ("GameEnded", "winner"): "Int",
        ("GameEnded", "ranking"): "[Placing!]!",
        ("TurnStarted", "fromRegions"): "[RegionBonus!]!",
        ("FuturisikoBattleFought", "volleys"): "[[Int!]!]!",
        ("ClockChanged", "deadline"): "Float",
        ("GameCreated", "options"): "JSON!",
    }


def test_an_events_detail_is_its_fields_shown_in_their_types() -> None:
    ended = detail_of(e.GameEnded(None, "round_limit", ((1, 2, 9), (2, 0, 4)), ("o1", "o2")))
    assert type(ended).__name__ == "GameEnded"
    assert (ended.winner, ended.reason, ended.objectives) == (None, "round_limit", ["o1", "o2"])
    assert [(p.rank, p.seat, p.points) for p in ended.ranking] == [(1, 2, 9), (2, 0, 4)]
    turn = detail_of(e.TurnStarted(1, 2, 5, 3, (("europa", 5),)))
    assert [(r.region, r.armies) for r in turn.from_regions] == [("europa", 5)]
    stored = {"type": "FromTomorrow", "x": [1]}
    unreadable = detail_of(UnknownEvent(stored))
    assert (unreadable.stored_type, unreadable.data) == ("FromTomorrow", stored)
