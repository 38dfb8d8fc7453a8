// Play a rated game, #/me/pool: join the matchmaking pool (the game, the table's size, a clock
// of one speed or the other: real-time or correspondence), the account's seeks with their state
// and Cancel while open, and once matched a link to the game (the page goes there when it was
// matched while the page is shown). The seeks are read every few seconds while one is open.

import { accountError, date, loggedIn, sessionEnded } from "../account/common";
import { checked, request } from "../api";
import { escape, html, on } from "../dom";
import type { CancelSeekMutation, JoinSeekMutation, MySeeksQuery, SeekFieldsFragment } from "../generated/graphql";
import { t } from "../i18n";
import type { Variant } from "../map/draw";
import { speedName } from "../ratings/common";
import { gameLink } from "../routes";
import { clockText, gameChoice, gameLinkText, listBox } from "./common";
import { CANCEL_SEEK, JOIN_SEEK, MY_SEEKS } from "./documents";

type Seek = SeekFieldsFragment;
const POLL_MS = 3000;
/** The clocks offered, by speed: a time per turn (real-time up to 15 minutes a turn). */
const CLOCKS = { REAL_TIME: [60, 120, 300], CORRESPONDENCE: [86400, 259200] } as const;

function poolForm(variants: readonly Variant[]): string {
  const group = (speed: keyof typeof CLOCKS): string =>
    `<optgroup label="${speedName(speed)}">${CLOCKS[speed].map((s) => `<option value="${s}">${clockText({ turnSeconds: s })}</option>`).join("")}</optgroup>`;
  return `<form id="seek" class="play-form">
    ${gameChoice(variants)}
    <label>${t("play.players")} <input name="players" type="number" min="3" max="6" value="4" required inputmode="numeric"></label>
    <label>${t("play.clock")} <select name="turnSeconds">${group("REAL_TIME")}${group("CORRESPONDENCE")}</select></label>
    <small class="quiet">${t("play.poolHelp")}</small>
    <button type="submit">${t("play.join")}</button>
    <p class="error" role="alert"></p>
  </form>`;
}

function row(seek: Seek, titles: ReadonlyMap<string, string>): string {
  const action = seek.state === "OPEN" ? `<button type="button" data-cancel>${t("play.cancel")}</button>` : gameLinkText(seek.gameId);
  return `<tr data-seek="${escape(seek.id)}" data-state="${seek.state}">
    <th scope="row">${escape(titles.get(seek.variant) ?? seek.variant)} · ${t("play.seats", { count: seek.players })}</th>
    <td>${speedName(seek.speed)} · ${clockText(seek.clock)}</td>
    <td class="state">${t(`play.seek.${seek.state}`)}${seek.state === "OPEN" ? ` (${t("play.until", { date: date(seek.expiresAt) })})` : ""}</td>
    <td>${action}</td></tr>`;
}

export function showPool(root: HTMLElement, variants: readonly Variant[]): () => void {
  const token = loggedIn(root);
  if (!token) return () => {};
  const titles = new Map(variants.map((v) => [v.name, v.title]));
  const page = html(`<main class="play" id="main"><h1>${t("play.pool")}</h1><p>${t("play.poolRules")}</p>
    ${poolForm(variants)}<p class="quiet" role="status" id="told"></p><p class="error" role="alert" id="refused"></p></main>`);
  const box = listBox("seeks", t("play.seeks"), [t("lobby.game"), t("play.clock"), t("play.state"), t("play.actions")]);
  page.append(box);
  root.replaceChildren(page);
  let seeks: Seek[] | null = null;
  let left = false;
  let timer = 0;
  const refused = (failure: unknown): void => {
    if (!left && !sessionEnded(root, failure)) page.querySelector("#refused")!.textContent = accountError(failure);
  };
  const draw = (found: Seek[]): void => {
    const matched = found.find((s) => s.gameId && seeks?.some((was) => was.id === s.id && !was.gameId));
    seeks = found;
    box.querySelector("tbody")!.innerHTML = found.map((s) => row(s, titles)).join("") || `<tr><td colspan="4" class="quiet">${t("play.noSeeks")}</td></tr>`;
    if (matched?.gameId) {
      page.querySelector("#told")!.textContent = t("play.matched");
      location.hash = gameLink(matched.gameId);
    }
  };
  const read = async (): Promise<void> => {
    window.clearTimeout(timer);
    try {
      const data = await request<MySeeksQuery>(MY_SEEKS, {}, token);
      if (left || !data.me) return;
      draw(data.me.seeks);
      if (data.me.seeks.some((s) => s.state === "OPEN")) timer = window.setTimeout(() => void read(), POLL_MS);
    } catch (failure) {
      refused(failure);
    }
  };
  const form = page.querySelector<HTMLFormElement>("#seek")!;
  on(form, "submit", async (event) => {
    event.preventDefault();
    const fields = new FormData(form);
    const input = { variant: String(fields.get("variant")), players: Number(fields.get("players")), rated: true, clock: { turnSeconds: Number(fields.get("turnSeconds")) } };
    form.querySelector(".error")!.textContent = "";
    try {
      const joined = checked((await request<JoinSeekMutation>(JOIN_SEEK, { input }, token)).joinSeek).seek;
      page.querySelector("#told")!.textContent = t(joined?.gameId ? "play.matched" : "play.joined");
      if (joined?.gameId) location.hash = gameLink(joined.gameId);
      else await read();
    } catch (failure) {
      if (!sessionEnded(root, failure)) form.querySelector(".error")!.textContent = accountError(failure);
    }
  });
  on(box, "click", async (event) => {
    const button = (event.target as HTMLElement).closest<HTMLButtonElement>("button[data-cancel]");
    const id = button?.closest<HTMLElement>("tr")?.dataset.seek;
    if (!button || !id) return;
    button.disabled = true;
    try {
      checked((await request<CancelSeekMutation>(CANCEL_SEEK, { input: { seekId: id } }, token)).cancelSeek);
      await read();
    } catch (failure) {
      button.disabled = false;
      refused(failure);
    }
  });
  void read();
  return () => {
    left = true;
    window.clearTimeout(timer);
  };
}
