// Legal actions, read generically: each family (LegalPlaceArmies, LegalAttack, a new game's
// own…) comes with every field the schema gives it (documents.ts's LEGAL_ACTIONS, written from
// the schema at build time), and its `input` is a ready ActionInput. A field of that input is a
// number in a range when the family has min<Field> and max<Field>, a choice when the family
// lists its values (territories for territory, against for against, …), and fixed otherwise.
// Where a family acts on the map is read the same way: its origin is its first field naming
// spaces (source, sea, territories…), its targets the other spaces it names. So the client
// plays every game, including those still to come, with nothing written per game.

import type { Json } from "./api";

export interface Family {
  type: string;
  values: Json;
  member: string;
  ready: Json | boolean;
}

export type Param =
  | { name: string; kind: "range"; min: number; max: number; value: number }
  | { name: string; kind: "choice"; options: (string | number)[]; value: string | number }
  | { name: string; kind: "fixed"; value: unknown };

export function family(raw: Json): Family {
  const input = raw.input as Record<string, Json | boolean>;
  const member = Object.keys(input)[0];
  return { type: String(raw.__typename), values: raw, member, ready: input[member] };
}

const capital = (name: string): string => name[0].toUpperCase() + name.slice(1);

/** The family's list of values for the input field `name` (territories for territory). */
function listed(f: Family, name: string): unknown[] | null {
  for (const candidate of [name, `${name}s`, `${name}es`, `${name.replace(/y$/, "")}ies`]) {
    const found = f.values[candidate];
    if (Array.isArray(found) && found.length) return found;
  }
  return null;
}

export function params(f: Family): Param[] {
  if (typeof f.ready !== "object") return [];
  return Object.entries(f.ready).map(([name, value]): Param => {
    const min = f.values[`min${capital(name)}`];
    const max = f.values[`max${capital(name)}`];
    if (typeof min === "number") {
      // "dice from minDice to 3": a family without max<Field> keeps the ready value as its top
      const top = typeof max === "number" ? max : Math.max(min, Number(value));
      return { name, kind: "range", min, max: top, value: Number(value) };
    }
    const options = listed(f, name);
    if (options && (typeof value === "string" || typeof value === "number") && options.every((o) => typeof o === typeof value)) {
      const all = options.includes(value) ? options : [value, ...options];
      return { name, kind: "choice", options: all as (string | number)[], value };
    }
    return { name, kind: "fixed", value };
  });
}

// The fields that name where a family acts, the first one found being its origin.
const PLACES = ["source", "sources", "sea", "province", "territory", "territories", "provinces", "seas", "spaces", "targets", "target"];

function spacesIn(value: unknown, board: ReadonlySet<string>): string[] {
  return (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === "string" && board.has(item));
}

/** Where the family starts: the space its units leave, or the spaces it may go on. */
export function origins(f: Family, board: ReadonlySet<string>): string[] {
  for (const field of PLACES) {
    const found = spacesIn(f.values[field], board);
    if (found.length) return found;
  }
  return [];
}

/** The other spaces it names: the targets of an attack, a move, a card. */
export function targets(f: Family, board: ReadonlySet<string>): string[] {
  const start = new Set(origins(f, board));
  const found = new Set<string>();
  for (const field of PLACES) for (const space of spacesIn(f.values[field], board)) if (!start.has(space)) found.add(space);
  return [...found];
}

/** A family that starts from one space (an attack from a source), rather than on one of many. */
export function startsHere(f: Family, board: ReadonlySet<string>): boolean {
  const field = PLACES.find((name) => spacesIn(f.values[name], board).length);
  return field !== undefined && !Array.isArray(f.values[field]);
}

/** The ActionInput to submit: the ready input with the chosen values. */
export function actionInput(f: Family, chosen: Record<string, unknown>): Json {
  if (typeof f.ready !== "object") return { [f.member]: f.ready };
  return { [f.member]: { ...f.ready, ...chosen } };
}
