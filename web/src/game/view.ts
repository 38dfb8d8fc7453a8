// The parts of a game's page drawn from the game as last read: the status line, the viewer's
// own secrets (objective, cards, hidden armies), the clock, and what the map marks beyond the
// board (the viewer's hidden armies, fortresses in their players' colours, the flagship).

import { escape, html } from "../dom";
import { t, tOr } from "../i18n";
import type { Marks, SpaceState } from "../map/draw";
import { shownPhase } from "./actions";
import type { GameContext, State } from "./context";

export function statusText(ctx: GameContext): string {
  const { state, names } = ctx;
  if (state.status !== "ACTIVE") return t(state.status === "LOBBY" ? "status.lobby" : "status.finished");
  const phase = tOr(`phase.${shownPhase(state.phase, state.armiesToPlace, state.piecesToPlace)}`, t("phase.other"));
  const turn = state.seatToAct;
  const who =
    turn === null ? "" : turn === state.viewerSeat ? t("status.yourMove") : turn !== state.currentPlayer ? t("status.answers", { player: names.player(turn) }) : t("status.plays", { player: names.player(turn) });
  return t("status.active", { round: state.round, phase, who });
}

export function renderMine(box: HTMLElement, ctx: GameContext): void {
  const { state, names } = ctx;
  box.replaceChildren();
  if (state.viewerSeat === null) return;
  if (state.objective) {
    const objective = state.objective.territories
      ? t("objective.tournamentHold", { name: state.objective.text, territories: names.spaces(state.objective.territories) })
      : names.objective(state.objective.id);
    box.append(html(`<p class="objective" data-objective="${escape(state.objective.id)}"><strong>${t("mine.objective")}</strong> ${escape(objective)}</p>`));
  }
  for (const secret of state.secrets ?? []) {
    const line = secretLine(secret.name, secret.value, ctx);
    if (line) box.append(html(`<p class="secret">${escape(line)}</p>`));
  }
  if (state.hand) {
    const cards = state.hand.map((c) => `<li class="card" data-card="${escape(c.id)}">${escape(handCard(c, ctx))}</li>`).join("");
    box.append(html(`<div class="hand"><h2>${t("mine.cards")}</h2><ul>${cards || `<li class="quiet">${t("mine.noCards")}</li>`}</ul></div>`));
  }
}

function handCard(card: NonNullable<State["hand"]>[number], ctx: GameContext): string {
  const kind = ctx.names.cardKind(card.symbol);
  return card.territory ? t("mine.card", { kind, territory: ctx.names.space(card.territory) }) : kind;
}

/** A secret of the viewer's own (RisiKo! Più's), in words; null for one not worth a line. */
function secretLine(name: string, value: string, ctx: GameContext): string | null {
  const used = ctx.state.secrets?.find((s) => s.name === "hidden_armies_used")?.value === "yes";
  if (name === "hidden_territory") return value ? t(used ? "mine.hiddenUsed" : "mine.hidden", { territory: ctx.names.space(value) }) : null;
  if (name === "marshal_orders") return t("mine.marshalOrders", { orders: tOr(`orders.marshal.${value}`, t("value.none")) });
  if (name === "spy_orders") return t("mine.spyOrders", { orders: tOr(`orders.spy.${value}`, t("value.none")) });
  return null;
}

export function renderClock(box: HTMLElement, ctx: GameContext | null): void {
  const state = ctx?.state;
  const deadline = state?.clock?.deadline;
  box.hidden = !state || state.status !== "ACTIVE" || !deadline;
  if (box.hidden || !ctx || !deadline) return;
  const left = Math.max(0, Math.round((Date.parse(deadline) - Date.now()) / 1000));
  const seat = state.clock?.seat;
  const time = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  box.textContent = t(state.clock?.kind === "answer" ? "clock.answer" : "clock.turn", { player: seat === null || seat === undefined ? "" : ctx.names.player(seat), time });
}

/** What the map marks for this viewer beyond the board. */
export function extraMarks(ctx: GameContext): Pick<Marks, "extra" | "markerSeat"> {
  const { state } = ctx;
  const extra = new Map<string, string[]>();
  const markerSeat = new Map<string, number>();
  const hidden = state.secrets?.find((s) => s.name === "hidden_territory")?.value;
  const used = state.secrets?.find((s) => s.name === "hidden_armies_used")?.value === "yes";
  if (hidden && !used) extra.set(hidden, ["hidden"]);
  const game = state.state;
  if (game?.__typename === "PiuState") {
    game.fortresses.forEach((territory, seat) => territory && markerSeat.set(territory, seat));
    if (game.flagshipArmies && game.attackTarget) extra.set(game.attackTarget, [...(extra.get(game.attackTarget) ?? []), "flagship"]);
  }
  return { extra, markerSeat };
}

/** A space in words, for its button on the map: its name, who holds it, with what. */
export function spaceLabel(ctx: GameContext, space: SpaceState, marks: Marks): string {
  const { names } = ctx;
  const parts = [names.space(space.id)];
  const region = ctx.variant.board.territories.find((s) => s.id === space.id)?.region;
  if (region) parts.push(names.region(region));
  const army = space.units.find((u) => u.neutral);
  if (space.owner !== null) parts.push(names.player(space.owner));
  else if (army?.neutral) parts.push(t("map.neutral", { colour: names.colour(army.neutral) }));
  const units = space.units.map((u) => (u.seat === space.owner || u.neutral ? names.units(u.kind, u.count) : `${names.player(u.seat ?? -1)}: ${names.units(u.kind, u.count)}`));
  if (units.length) parts.push(units.join(", "));
  for (const marker of [...space.markers, ...(marks.extra.get(space.id) ?? [])]) parts.push(names.marker(marker));
  if (marks.selected === space.id) parts.push(t("map.selected"));
  else if (marks.targets.has(space.id)) parts.push(t("map.canTarget"));
  else if (marks.act.has(space.id)) parts.push(t("map.canAct"));
  return parts.join(", ");
}
