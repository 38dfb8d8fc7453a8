// What an event says on the page: a sentence, and dice drawn as dice where it rolled some.

import type { Names } from "../names";
import type { DetailOf, Kind } from "./types";

/** One side's dice of a roll (or one volley), and what that side lost by it. */
export interface DiceRow {
  side: "attacker" | "defender";
  faces: number[];
  lost: number;
}

export interface Sentence {
  text: string;
  dice?: DiceRow[];
  /** How it reads in the log: a fight, the end of the game, the viewer's own secret. */
  tone?: "combat" | "outcome" | "private" | "turn";
}

/** One renderer per kind of event: the sentence it makes of the kind's fields, or null when
 * it has nothing to say (a clock that stopped, say). `viewer` is the seat reading it, or null. */
export type Renderer<K extends Kind> = (detail: DetailOf<K>, names: Names, viewer: number | null) => Sentence | null;

export type Renderers = { [K in Kind]: Renderer<K> };

/** A roll's two rows: the attacker's dice and losses, then the defender's. */
export function roll(data: { attackerDice: number[]; defenderDice: number[]; attackerLosses: number; defenderLosses: number }): DiceRow[] {
  return [
    { side: "attacker", faces: data.attackerDice, lost: data.attackerLosses },
    { side: "defender", faces: data.defenderDice, lost: data.defenderLosses },
  ];
}
