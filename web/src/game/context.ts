// What the parts of a game's page share: the game as last read, its variant, the names of
// everything in it, and the way to act on it.

import type { Json } from "../api";
import type { GameStateQuery } from "../generated/graphql";
import type { Variant } from "../map/draw";
import type { Names } from "../names";
import type { Words } from "./words";

export type State = NonNullable<GameStateQuery["game"]>;
export type TerritoryState = State["territories"][number];

export interface GameContext {
  gameId: string;
  variant: Variant;
  state: State;
  token: string | null;
  names: Names;
  words: Words;
  board: ReadonlySet<string>;
  colour(seat: number | null, neutral?: string | null): string;
  /** Send an action; the page follows with the game as it is after it. */
  submit(action: Json): Promise<void>;
}

/** Units of `kinds` (every kind if none) of `seat` (anyone's if undefined) on a space. */
export function unitsOn(state: State, space: string, seat?: number | null, kinds?: readonly string[]): number {
  const here = state.territories.find((s) => s.id === space);
  return (here?.units ?? [])
    .filter((u) => (seat === undefined || u.seat === seat) && (!kinds || kinds.includes(u.kind)))
    .reduce((n, u) => n + u.count, 0);
}
