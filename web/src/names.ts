// Everything the API names by id, in words: spaces and regions by their printed names,
// players by the names they chose, colours, cards, objectives, units and markers from the
// catalogue. Nothing here shows an id: an id the catalogue does not know becomes a neutral
// word, never the id itself.

import { list, t, tOr } from "./i18n";
import type { Variant } from "./map/draw";

export interface Names {
  space(id: string): string;
  region(id: string): string;
  player(seat: number): string;
  colour(id: string): string;
  card(id: string): string;
  cardKind(kind: string): string;
  objective(id: string): string;
  units(kind: string, count: number): string;
  marker(kind: string): string;
  /** Players by seat, as a list in words ("Anna, Bruno and Carla"). */
  players(seats: readonly number[]): string;
  spaces(ids: readonly string[]): string;
  cards(ids: readonly string[]): string;
}

/** Names of one game: its variant's board, and its players (by seat) as known now. */
export function namesOf(variant: Variant | undefined, players: () => Map<number, string>): Names {
  const spaces = new Map(variant?.board.territories.map((s) => [s.id, s.name]) ?? []);
  const regions = new Map(variant?.board.regions.map((r) => [r.id, r.name]) ?? []);
  const colours = new Map(variant?.colours.map((c) => [c.id, c.name]) ?? []);
  const names: Names = {
    space: (id) => spaces.get(id) ?? t("name.unknownSpace"),
    region: (id) => regions.get(id) ?? t("name.unknownRegion"),
    player: (seat) => (seat < 0 ? t("name.neutral") : players().get(seat) ?? t("name.seat", { seat: seat + 1 })),
    colour: (id) => tOr(`colour.${id}`, colours.get(id) ?? t("name.unknownColour")),
    card: (id) => cardName(id, spaces),
    cardKind: (kind) => tOr(`card.${kind}`, t("name.card")),
    objective: (id) => objectiveText(id),
    // A game may name a kind its own way (S.P.Q.RisiKo!'s armies are legionaries).
    units: (kind, count) => tOr(`units.${kind}.${variant?.name}`, tOr(`units.${kind}`, { key: "units.other" }, { count }), { count }),
    marker: (kind) => tOr(`marker.${kind}`, t("name.marker")),
    players: (seats) => list(seats.map((seat) => names.player(seat))),
    spaces: (ids) => list(ids.map((id) => names.space(id))),
    cards: (ids) => list(ids.map((id) => names.card(id))),
  };
  return names;
}

/** A card by its id: a territory's card (classic: the territory's id), a jolly, or a
 * numbered card of a kind (legionario_07, spia_03, arma_segreta_01, jolly_1). */
function cardName(id: string, spaces: Map<string, string>): string {
  const territory = spaces.get(id);
  if (territory) return t("name.territoryCard", { territory });
  const kind = /^(.*?)_?\d+$/.exec(id)?.[1] ?? id;
  return tOr(`card.${kind}`, t("name.card"));
}

/** An objective's text by its id (the standard ones, a destroy-a-colour one, or a
 * tournament objective by its printed name). */
export function objectiveText(id: string): string {
  const destroy = /^destroy_(.+)$/.exec(id);
  if (destroy) return t("objective.destroy", { colour: tOr(`colour.${destroy[1]}`, t("name.unknownColour")).toLowerCase() });
  return tOr(`objective.${id}`, t("objective.tournament", { name: id.replace(/_/g, " ").toUpperCase() }));
}
