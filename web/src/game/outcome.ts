// How a game ended: the winner, why, the ranking with its points, and the proof of the dice
// (the revealed secret, checked in the browser against what was published before).

import { escape, html, on } from "../dom";
import { sentSeeds } from "../seeds";
import { t, tOr } from "../i18n";
import type { GameContext } from "./context";

let shown = "";

export function renderOutcome(box: HTMLElement, ctx: GameContext): void {
  const { state, names } = ctx;
  const outcome = state.outcome;
  box.hidden = !outcome;
  if (!outcome) return;
  // Drawn again only when something in it changes: a later load (another event) keeps what the
  // viewer did with it, such as a verification.
  const key = JSON.stringify([ctx.gameId, outcome, state.randomness.secret, state.players.map((p) => p.name), document.documentElement.lang]);
  if (key === shown && box.childElementCount) return;
  shown = key;
  const heading = outcome.winner === null ? t("outcome.noWinner") : t("outcome.wins", { player: names.player(outcome.winner) });
  const rows = outcome.ranking
    .map((r) => `<tr><td>${t("outcome.rank", { rank: r.rank })}</td><th scope="row"><span class="swatch" style="background:${ctx.colour(r.seat)}"></span>${escape(names.player(r.seat))}</th><td>${t("outcome.points", { points: r.points })}</td></tr>`)
    .join("");
  box.innerHTML = `<h2>${escape(heading)}</h2><p>${escape(tOr(`outcome.${outcome.reason}`, t("outcome.other")))}</p><table class="ranking"><caption class="visually-hidden">${t("outcome.ranking")}</caption><tbody>${rows}</tbody></table>`;
  const randomness = state.randomness;
  if (!randomness.secret) return;
  const seed = html(`<div class="seed"><p>${t("outcome.secret")} <code></code></p><p><button type="button">${t("outcome.verify")}</button> <span role="status"></span></p><ul class="checks"></ul></div>`);
  seed.querySelector("code")!.textContent = randomness.secret;
  on(seed.querySelector("button")!, "click", async () => {
    const { checkChain } = await import("../fairness"); // its hashes load when asked for
    const me = state.viewerSeat;
    const checks = checkChain(randomness, me === null ? null : { seat: me, sent: sentSeeds.get(ctx.gameId) });
    const holds = checks.every((c) => c.ok);
    seed.querySelector("span")!.textContent = holds ? t("fair.holds") : t("fair.broken");
    const list = seed.querySelector(".checks")!;
    list.innerHTML = checks.map((c) => `<li class="${c.ok ? "ok" : "bad"}">${c.ok ? "✓" : "✗"} ${escape(c.text)}</li>`).join("");
    const command = `risiko verify ${location.origin}${location.pathname.replace(/\/$/, "")} ${ctx.gameId}`;
    list.append(html(`<li class="quiet">${escape(t("fair.everyDie"))} <code>${escape(command)}</code></li>`));
  });
  box.append(seed);
}
