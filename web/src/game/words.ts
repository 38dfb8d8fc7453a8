// The values of legal actions in words: a space by its printed name, a seat by its player, a
// card, a colour, a kind of unit; and every field of a family as the values of its sentence.

import { list, t, tOr, type Values } from "../i18n";
import type { Names } from "../names";

const SEAT_FIELDS = new Set(["player", "players", "opponent", "against", "defender"]);

export interface Words {
  names: Names;
  isSpace(id: string): boolean;
  /** A space with who holds it and with what, for a list of choices. */
  spaceDetail(id: string): string;
}

/** One value of the input field or family field `field`, in words. */
export function valueWord(field: string, value: unknown, words: Words): string {
  const { names } = words;
  if (typeof value === "number") {
    if (SEAT_FIELDS.has(field)) return value < 0 ? t("value.nobody") : names.player(value);
    return String(value);
  }
  if (typeof value !== "string") return "";
  if (value === "") return t(field === "discard" ? "value.keepAll" : "value.none");
  if (words.isSpace(value) && !/^cards?$|^discards?$/.test(field)) return names.space(value);
  if (/^(cards?|discards?|required)$/.test(field)) return field === "required" ? names.cardKind(value) : names.card(value);
  if (/^colours?$/.test(field)) return names.colour(value);
  if (field === "unit") return tOr(`unit.${value}`, t("name.unit"));
  if (field === "marshal" || field === "spy") return tOr(`orders.${field}.${value}`, t("value.none"));
  return tOr(`value.${field}.${value}`, t("value.none"));
}

/** Every field of a family (its lists as lists in words), for the sentence that tells it. */
export function familyValues(values: Record<string, unknown>, words: Words): Values {
  const found: Values = {};
  for (const [field, value] of Object.entries(values)) {
    if (field === "input" || field === "__typename") continue;
    if (Array.isArray(value)) {
      found[field] = list(value.map((item) => valueWord(field, item, words)).filter(Boolean));
      found[`${field}Count`] = value.length;
    } else if (typeof value === "boolean") {
      found[field] = value ? "yes" : "no"; // for the messages' select, never shown as is
    } else {
      found[field] = typeof value === "number" && !SEAT_FIELDS.has(field) ? value : valueWord(field, value, words);
    }
  }
  return found;
}
