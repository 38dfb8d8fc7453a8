// A rated game on its page: marked so with its speed, each player's rating beside its name (its
// account's in the game's variant and speed), and the expected ranking the ratings give (each
// player's expected place and chance to finish first), before, during and after the game.

import { escape, html } from "../dom";
import { percent, t } from "../i18n";
import type { GameContext, State } from "../game/context";
import { ratingText, speedName } from "./common";

type Player = State["players"][number];

/** "Rated game, real time" in the page's head; hidden for an unrated game. */
export function renderRated(line: HTMLElement, state: State): void {
  line.hidden = !state.rated || !state.speed;
  line.textContent = state.rated && state.speed ? t("rating.ratedGame", { speed: speedName(state.speed) }) : "";
}

/** Beside a player's name in a rated game: its account's rating in the game's variant and
 * speed, as the expected ranking has it (now, until the game is rated; then the one it had
 * before it, which the expected ranking was made from). */
export function ratingBeside(state: State, player: Player): string {
  const rating = state.expectedRanking?.find((place) => place.seat === player.seat)?.rating;
  if (!state.rated || !rating) return "";
  const said = t(state.status === "FINISHED" ? "rating.beforeGame" : "rating.rating");
  return ` <span class="seat-rating" title="${escape(said)}">${ratingText(rating)}</span>`;
}

export function renderExpected(box: HTMLElement, ctx: GameContext): void {
  const expected = ctx.state.expectedRanking;
  if (!expected?.length) return box.replaceChildren();
  const sorted = [...expected].sort((a, b) => a.rank - b.rank || a.seat - b.seat);
  const rows = sorted.map((place) => {
    const swatch = `<span class="swatch" style="background:${ctx.colour(place.seat)}"></span>`;
    return `<tr data-seat="${place.seat}"><td>${place.rank}</td><th scope="row">${swatch}${escape(ctx.names.player(place.seat))}</th><td class="chance">${percent(place.winChance)}</td></tr>`;
  });
  const title = t("rating.expected");
  box.replaceChildren(
    html(`<div class="expected"><h2>${title}</h2><div class="table-scroll" tabindex="0" role="region" aria-label="${title}"><table>
      <thead><tr><th scope="col">${t("rating.expectedPlace")}</th><th scope="col">${t("seats.player")}</th><th scope="col">${t("rating.winChance")}</th></tr></thead>
      <tbody>${rows.join("")}</tbody></table></div></div>`),
  );
}
