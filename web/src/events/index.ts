// The event log in words: one renderer per kind of event (events/common.ts, events/games.ts), a
// sentence for any event, and its dice drawn as dice.

import { t } from "../i18n";
import type { Names } from "../names";
import { COMMON } from "./common";
import { FUTURISIKO, PIU, SPQR } from "./games";
import type { DiceRow, Renderers, Sentence } from "./sentence";
import type { Detail, GameEvent } from "./types";

export type { Sentence } from "./sentence";
export type { GameEvent } from "./types";

// Every kind the schema knows has its renderer: a kind added to the schema fails the build
// until it has one.
const RENDERERS: Renderers = { ...COMMON, ...SPQR, ...PIU, ...FUTURISIKO };

/** What `event` says to `viewer` (a seat, or null for a spectator); null: nothing to say. An
 * event of a kind this client does not know yet (a game added to the server since it was
 * built) is told as such, never by its fields. */
export function describe(event: GameEvent, names: Names, viewer: number | null): Sentence | null {
  const kind = event.detail.__typename;
  if (!Object.hasOwn(RENDERERS, kind)) return { text: t("event.unknown") };
  const render = RENDERERS[kind] as (detail: Detail, names: Names, viewer: number | null) => Sentence | null;
  return render(event.detail, names, viewer);
}

const SVG = "http://www.w3.org/2000/svg";
// Pips of each face on a 3×3 grid (0..8, row by row).
const PIPS: Record<number, number[]> = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

/** A die as a picture: a rounded square with its pips. */
export function die(face: number, side: DiceRow["side"]): SVGSVGElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 18 18");
  svg.setAttribute("class", `die ${side}`);
  svg.setAttribute("aria-hidden", "true");
  const body = document.createElementNS(SVG, "rect");
  for (const [key, value] of Object.entries({ x: 1, y: 1, width: 16, height: 16, rx: 3.5 })) body.setAttribute(key, String(value));
  svg.append(body);
  for (const pip of PIPS[face] ?? []) {
    const dot = document.createElementNS(SVG, "circle");
    dot.setAttribute("cx", String(4.5 + (pip % 3) * 4.5));
    dot.setAttribute("cy", String(4.5 + Math.floor(pip / 3) * 4.5));
    dot.setAttribute("r", "1.6");
    svg.append(dot);
  }
  return svg;
}

/** A sentence as a log entry: its words, then its dice, side by side, with what each side lost
 * (and the same in words for screen readers). */
export function sentenceNode(sentence: Sentence): HTMLElement {
  const item = document.createElement("span");
  item.className = `sentence ${sentence.tone ?? ""}`.trim();
  const words = document.createElement("span");
  words.textContent = sentence.text;
  item.append(words);
  if (!sentence.dice?.length) return item;
  const rolls = document.createElement("span");
  rolls.className = "rolls";
  for (const row of sentence.dice) {
    const side = document.createElement("span");
    side.className = `roll ${row.side}`;
    const label = document.createElement("span");
    label.className = "visually-hidden";
    label.textContent = t(row.side === "attacker" ? "dice.attacker" : "dice.defender", { faces: row.faces.join(", ") });
    side.append(label, ...row.faces.map((face) => die(face, row.side)));
    if (row.lost > 0) {
      const lost = document.createElement("span");
      lost.className = "lost";
      lost.textContent = t("dice.lost", { count: row.lost });
      side.append(lost);
    }
    rolls.append(side);
  }
  item.append(rolls);
  return item;
}
