// Legal actions, read generically: each family (LegalPlaceArmies, LegalAttack, a new game's
// own…) is described by the schema, and its `input` is a ready ActionInput. A field of that
// input is a number in a range when the family has min<Field> and max<Field>, a choice when
// the family lists its values (territories for territory, …), and fixed otherwise. So the
// client plays every game, including those still to come, with nothing written per game.

import { request, type Json } from "./api";
import { FAMILIES } from "./documents";
import type { FamiliesQuery } from "./generated/graphql";

export interface FamilyType {
  name: string;
  about: string;
  fields: string[];
}

export interface Family {
  type: string;
  about: string;
  values: Json;
  member: string;
  ready: Json | boolean;
}

export type Param =
  | { name: string; kind: "range"; min: number; max: number; value: number }
  | { name: string; kind: "choice"; options: string[]; value: string }
  | { name: string; kind: "fixed"; value: unknown };

let types: Map<string, FamilyType> | null = null;

export async function familyTypes(): Promise<Map<string, FamilyType>> {
  if (types) return types;
  const data = await request<FamiliesQuery>(FAMILIES);
  const found = new Map<string, FamilyType>();
  for (const t of data.__type?.possibleTypes ?? []) {
    if (!t.name) continue;
    const fields = (t.fields ?? []).map((f) => f.name);
    found.set(t.name, { name: t.name, about: t.description ?? "", fields });
  }
  types = found;
  return found;
}

export async function fragments(): Promise<string> {
  const known = await familyTypes();
  return [...known.values()].map((t) => `... on ${t.name} { ${t.fields.join(" ")} }`).join(" ");
}

export function family(raw: Json, known: Map<string, FamilyType>): Family {
  const type = String(raw.__typename);
  const input = raw.input as Record<string, Json | boolean>;
  const member = Object.keys(input)[0];
  return { type, about: known.get(type)?.about ?? "", values: raw, member, ready: input[member] };
}

const capital = (name: string): string => name[0].toUpperCase() + name.slice(1);

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
    if (typeof value === "string") {
      for (const listed of Object.values(f.values)) {
        if (Array.isArray(listed) && listed.includes(value) && listed.every((v) => typeof v === "string")) {
          return { name, kind: "choice", options: listed as string[], value };
        }
      }
    }
    return { name, kind: "fixed", value };
  });
}

/** The board's spaces a family concerns (a place to put armies, an attack's two ends, …). */
export function spacesOf(f: Family, spaces: Set<string>): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(f.values)) {
    // Card ids name territories on some boards: a set of cards is not a place on the map.
    if (name === "__typename" || name === "input" || name === "cards") continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === "string" && spaces.has(item) && !found.includes(item)) found.push(item);
    }
  }
  return found;
}

/** The ActionInput to submit: the ready input with the chosen values. */
export function actionInput(f: Family, chosen: Record<string, unknown>): Json {
  if (typeof f.ready !== "object") return { [f.member]: f.ready };
  return { [f.member]: { ...f.ready, ...chosen } };
}

/** "placeArmies" -> "Place armies". */
export function title(member: string): string {
  const words = member.replace(/([A-Z])/g, " $1").toLowerCase();
  return capital(words);
}
