"""The catalogue of games: each variant's board, colours, options and kinds."""

from __future__ import annotations

from typing import Any

import strawberry
from strawberry.scalars import JSON

from api.graphql.enums import SpaceKind
from api.graphql.generated import member
from domain.options import DOC
from variants import Variant as DomainVariant


@strawberry.type(
    description="A space of a board: a territory (S.P.Q.RisiKo!: a province) or a sea area."
)
class Territory:
    id: str = strawberry.field(description="Ascii id, used in actions.")
    name: str = strawberry.field(description="The name printed on the board.")
    region: str | None = strawberry.field(
        description="Id of the region (continent) it belongs to; null on boards without regions."
    )
    kind: SpaceKind = strawberry.field(
        description="LAND (holds armies) or SEA (an S.P.Q.RisiKo! sea area: holds triremes)."
    )


@strawberry.type(description="A region (continent) and the armies it is worth when held whole.")
class Region:
    id: str = strawberry.field(description="Ascii id.")
    name: str = strawberry.field(description="The name printed on the board.")
    bonus: int = strawberry.field(description="Extra armies a turn for holding every territory.")
    territories: list[str] = strawberry.field(description="Ids of its territories.")


@strawberry.type(description="A border between two territories.")
class Edge:
    a: str = strawberry.field(description="One territory's id.")
    b: str = strawberry.field(description="The other territory's id.")
    kind: str = strawberry.field(
        description="land, sea_line (a dotted line across water), coast, sea or black_line."
    )


@strawberry.type(description="A space's shape on the board's map.")
class SpaceShape:
    id: str = strawberry.field(description="The space's id.")
    path: str = strawberry.field(
        description="SVG path data in map units: one closed subpath per ring (holes too), to "
        "fill with the even-odd rule."
    )
    anchor: list[float] = strawberry.field(
        description="[x, y]: where the space lies, the place for its label and its units."
    )


@strawberry.type(description="A drawn line joining two neighbours whose shapes do not touch.")
class MapLine:
    a: str = strawberry.field(description="One space's id.")
    b: str = strawberry.field(description="The other's.")
    segments: list[list[float]] = strawberry.field(
        description="[x1, y1, x2, y2] each: one segment, or two for a line that leaves one "
        "side of a world map and comes back on the other."
    )


@strawberry.type(
    description="The board drawn as a map, the same for every client: each space's shape and "
    "anchor, and lines for neighbours across water. Made from anchors and Natural Earth's "
    "land (no printed map is available): territories look like the part of the world they "
    "name, not like the printed board."
)
class BoardGeometry:
    width: int = strawberry.field(description="Width of the map, in map units.")
    height: int = strawberry.field(description="Height of the map, in map units.")
    projection: str = strawberry.field(description="The map projection (naturalEarth, mercator).")
    source: str = strawberry.field(description="Where its shapes come from.")
    land: str = strawberry.field(
        description="SVG path of all the land in the frame: what no space covers is plain land."
    )
    spaces: list[SpaceShape] = strawberry.field(description="Every space, in the board's order.")
    lines: list[MapLine] = strawberry.field(description="Lines between neighbours apart.")


def svg_path(shape: list[list[list[list[float]]]]) -> str:
    """A multipolygon's rings as SVG path data."""
    return "".join(
        "M" + "L".join(f"{x:g},{y:g}" for x, y in ring[:-1]) + "Z"
        for polygon in shape
        for ring in polygon
    )


def geometry_type(drawn: dict[str, Any] | None) -> BoardGeometry | None:
    if drawn is None:
        return None
    return BoardGeometry(
        width=drawn["width"],
        height=drawn["height"],
        projection=drawn["projection"],
        source=drawn["source"],
        land=svg_path(drawn["background"]),
        spaces=[
            SpaceShape(id=space_id, path=svg_path(space["shape"]), anchor=space["anchor"])
            for space_id, space in drawn["spaces"].items()
        ],
        lines=[
            MapLine(a=line["from"], b=line["to"], segments=[[*p, *q] for p, q in line["segments"]])
            for line in drawn["lines"]
        ],
    )


@strawberry.type(description="A board: a graph of territories in regions.")
class Board:
    id: str = strawberry.field(description="Ascii id of the board.")
    name: str = strawberry.field(description="Display name.")
    territories: list[Territory] = strawberry.field(description="Every territory.")
    regions: list[Region] = strawberry.field(description="Every region with its bonus.")
    edges: list[Edge] = strawberry.field(description="Every border, once.")
    geometry: BoardGeometry | None = strawberry.field(
        description="The board drawn as a map (null for a board that has none yet)."
    )
    version: str | None = strawberry.field(
        description="Null for a printed board; reconstructed-N for a board rebuilt where no "
        "printed one is readable (RisiKo! Più): a real board would come as a new version, and "
        "games keep the version they were played on."
    )
    reconstructed: bool = strawberry.field(
        description="Whether the board is a reconstruction (its borders and seas designed to "
        "fit every known constraint; docs/piu.md)."
    )


@strawberry.type(description="A colour players can choose.")
class Colour:
    id: str = strawberry.field(description="Ascii id, used in joinGame.")
    name: str = strawberry.field(description="Display name.")


@strawberry.type(description="An option a game of this variant can be created with.")
class VariantOption:
    name: str = strawberry.field(description="The option's name in GameOptionsInput.")
    default: JSON | None = strawberry.field(
        description="Its default value; null when it is off by default (no limit)."
    )
    description: str = strawberry.field(description="What it does.")


@strawberry.type(description="A revision of a game's rules, and what it changed.")
class RulesRevision:
    revision: int = strawberry.field(description="Its number: 1, 2, …")
    change: str = strawberry.field(description="One line on what it changed.")


@strawberry.type(description="A game this server plays.")
class Variant:
    name: str = strawberry.field(description="Id used in createGame.")
    title: str = strawberry.field(description="Display name.")
    description: str = strawberry.field(description="One line about the game.")
    min_players: int = strawberry.field(description="Fewest players.")
    max_players: int = strawberry.field(description="Most players.")
    board: Board = strawberry.field(description="The board.")
    colours: list[Colour] = strawberry.field(description="Colours in their default order.")
    options: list[VariantOption] = strawberry.field(
        description="Options of createGame with their defaults; those the variant's rules fix "
        "(S.P.Q.RisiKo!'s defender dice, garrison and objectives) are left out."
    )
    action_kinds: list[str] = strawberry.field(
        description="The ActionInput members this game takes (placeArmies, attack, …; "
        "claimProvince, navalBattle, … in S.P.Q.RisiKo!; chooseFortress, playSpy, … in "
        "RisiKo! Più)."
    )
    unit_kinds: list[str] = strawberry.field(
        description="The kinds of unit its spaces hold (TerritoryState.units): army, and "
        "trireme in S.P.Q.RisiKo!."
    )
    marker_kinds: list[str] = strawberry.field(
        description="The kinds of marker its spaces carry (TerritoryState.markers): "
        "power_centre in S.P.Q.RisiKo!, fortress in RisiKo! Più; none in classic games."
    )
    rules_revision: int = strawberry.field(
        description="The revision of its rules a game created now plays by (Game.rulesRevision)."
    )
    rules_revisions: list[RulesRevision] = strawberry.field(
        description="Every revision of its rules, oldest first, with what each changed."
    )


_VARIANTS: dict[str, Variant] = {}


def variant_type(variant: DomainVariant) -> Variant:
    """A variant's description never changes: built once, served from memory after that."""
    cached = _VARIANTS.get(variant.name)
    if cached is None:
        cached = _VARIANTS[variant.name] = _build_variant_type(variant)
    return cached


def _action_kinds(variant: DomainVariant) -> list[str]:
    """What a game of the variant plays, from a game of it (built once per variant)."""
    players = [f"seat {n}" for n in range(variant.ruleset.min_players)]
    game = variant.new_game(players, seed=b"action kinds")
    return [member(cls) for cls in game.action_types if cls.by_seat]


def _build_variant_type(variant: DomainVariant) -> Variant:
    ruleset = variant.ruleset
    board = ruleset.board
    defaults = variant.options_class.settable()
    described = variant.options_class.__dataclass_fields__

    def describe(name: str) -> str:
        return str(described[name].metadata[DOC])

    return Variant(
        name=variant.name,
        title=variant.title,
        description=variant.description,
        min_players=ruleset.min_players,
        max_players=ruleset.max_players,
        board=Board(
            id=board.id,
            name=board.name,
            territories=[
                Territory(id=t.id, name=t.name, region=t.region, kind=t.kind)
                for t in board.territories
            ],
            regions=[
                Region(id=r.id, name=r.name, bonus=r.bonus, territories=list(r.territories))
                for r in board.regions
            ],
            edges=[Edge(a=edge.a, b=edge.b, kind=edge.kind.value) for edge in board.edges],
            geometry=geometry_type(variant.map),
            version=board.version,
            reconstructed=board.reconstructed,
        ),
        colours=[Colour(id=c.id, name=c.name) for c in ruleset.colours],
        action_kinds=_action_kinds(variant),
        unit_kinds=list(variant.game_class.UNIT_KINDS),
        marker_kinds=list(variant.game_class.MARKER_KINDS),
        rules_revision=variant.rules_revision,
        rules_revisions=[
            RulesRevision(revision=revision, change=change)
            for revision, change in sorted(variant.rules_revisions.items())
        ],
        options=[
            VariantOption(name=name, default=JSON(value), description=describe(name))
            for name, value in defaults.items()
        ],
    )
