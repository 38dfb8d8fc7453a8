"""Every game plays by its own rules and options: defaults without options, refuses others';
and by the revision of its rules it was created under."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.errors import InvalidOptions, SnapshotFormatError
from domain.ruleset import Ruleset
from variants import VARIANTS

NAMES = ["Anna", "Bruno", "Carla"]


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_game_without_options_gets_its_own_defaults(name: str) -> None:
    variant = VARIANTS[name]
    game = variant.game_class(variant.ruleset, NAMES, seed=b"s")
    assert type(game.options) is variant.options_class
    assert game.options == variant.options_class()


OWN_RULES = sorted(n for n, v in VARIANTS.items() if v.game_class.RULESET_CLASS is not Ruleset)


@pytest.mark.parametrize("name", OWN_RULES)
def test_a_game_refuses_the_rules_and_options_of_another(name: str) -> None:
    game_class = VARIANTS[name].game_class
    others = [v for n, v in VARIANTS.items() if n != name]
    for other in others:
        with pytest.raises(InvalidOptions, match="plays by"):
            game_class(other.ruleset, NAMES, seed=b"s")
        if not isinstance(other.options(), game_class.OPTIONS_CLASS):
            with pytest.raises(InvalidOptions, match="takes"):
                game_class(VARIANTS[name].ruleset, NAMES, other.options(), seed=b"s")


# ---------------------------------------------------------------------- rules revisions

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_game_declares_its_own_rules_revisions_from_1_without_gaps(name: str) -> None:
    """Its own: a game that extends another (S.P.Q.RisiKo!, RisiKo! Più extend classic's
    Game) counts its own revisions, so a fix of the other does not renumber it."""
    variant = VARIANTS[name]
    revisions = variant.game_class.__dict__.get("RULES_REVISIONS")
    assert revisions is not None, f"{variant.game_class.__name__} declares no RULES_REVISIONS"
    assert list(revisions) == list(range(1, len(revisions) + 1))
    assert all(line.strip() and "\n" not in line for line in revisions.values())
    assert variant.rules_revision == len(revisions)
    assert variant.rules_revisions == revisions


@pytest.mark.parametrize("name", sorted(n for n in VARIANTS if (DOCS / f"{n}.md").exists()))
def test_a_game_s_docs_list_every_revision_of_its_rules(name: str) -> None:
    text = " ".join((DOCS / f"{name}.md").read_text(encoding="utf-8").split())
    for revision, change in VARIANTS[name].rules_revisions.items():
        assert f"| {revision} | {change} |" in text


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_game_plays_by_the_newest_rules_unless_told_the_revision_it_was_created_under(
    name: str,
) -> None:
    variant = VARIANTS[name]
    newest = variant.rules_revision
    assert variant.new_game(NAMES, seed=b"s").rules_revision == newest
    for revision in variant.rules_revisions:
        game = variant.new_game(NAMES, seed=b"s", rules_revision=revision)
        assert game.rules_revision == game.clone().rules_revision == revision
    for unknown in (0, newest + 1):
        with pytest.raises(InvalidOptions, match="rules revisions"):
            variant.new_game(NAMES, seed=b"s", rules_revision=unknown)


def test_a_snapshot_continues_only_a_game_of_its_rules_revision() -> None:
    """A snapshot is a cache of one game: restored into a game of other rules it is refused
    (the service then replays the log); one written before revisions existed is revision 1."""
    futurisiko = VARIANTS["futurisiko"]
    old, new = (futurisiko.new_game(NAMES, seed=b"s", rules_revision=r) for r in (1, 2))
    new.restore(new.snapshot())
    with pytest.raises(SnapshotFormatError, match="rules revision 2"):
        old.restore(new.snapshot())
    with pytest.raises(SnapshotFormatError, match="rules revision 1"):
        new.restore(old.snapshot())
    unrevised = {k: v for k, v in old.snapshot().items() if k != "rules_revision"}
    old.restore(unrevised)
    with pytest.raises(SnapshotFormatError):
        new.restore(unrevised)
