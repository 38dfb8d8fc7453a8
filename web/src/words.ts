// The event log in words, for any game: the event's name, then its fields, with seats as
// players' names, spaces as their printed names, and dice as dice.

const DICE = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
const SEAT_FIELDS = new Set(["seat", "attacker", "defender", "player", "winner", "by", "opponent", "first_player", "owner"]);

export interface Names {
  player(seat: number): string;
  space(id: string): string | null;
}

function spaced(type: string): string {
  return type.replace(/([a-z])([A-Z])/g, "$1 $2");
}

function value(field: string, raw: unknown, names: Names): string {
  if (Array.isArray(raw)) {
    if (/dice/.test(field) && raw.every((d) => typeof d === "number" && d >= 1 && d <= 6)) {
      return raw.map((d) => DICE[d as number]).join("");
    }
    if (raw.length > 8) return `${raw.length} items`;
    return raw.map((item) => value(field, item, names)).join(", ");
  }
  if (typeof raw === "number" && SEAT_FIELDS.has(field)) return names.player(raw);
  if (typeof raw === "string") return names.space(raw) ?? raw;
  if (raw === null || raw === undefined) return "—";
  if (typeof raw === "object") return "…";
  return String(raw);
}

export function describe(type: string, data: Record<string, unknown>, names: Names): string {
  const parts = Object.entries(data)
    .filter(([field]) => field !== "type" && field !== "commitment")
    .map(([field, raw]) => `${field.replace(/_/g, " ")}: ${value(field, raw, names)}`);
  return `${spaced(type)}${parts.length ? " — " + parts.join("; ") : ""}`;
}
