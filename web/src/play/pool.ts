// Play a rated game, #/me/pool: join the matchmaking pool (the game, the table's size, a clock
// of one speed or the other: real-time or correspondence), the account's seeks with their state
// and Cancel while open, and once matched a link to the game (the page goes there when it was
// matched while the page is shown). The seeks are read every few seconds while one is open.

import { date, loggedIn } from "../account/common";
import { checked, request } from "../api";
import { escape, html, on } from "../dom";
import type { CancelSeekMutation, JoinSeekMutation, MySeeksQuery, SeekFieldsFragment } from "../generated/graphql";
import { t } from "../i18n";
import type { Variant } from "../map/draw";
import { speedName } from "../ratings/common";
import { gameLink } from "../routes";
import { clockText, gameChoice, gameLinkText, listBox, PlayPage } from "./common";
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

/** The page: the account's seeks, read again every few seconds while one is open. */
class PoolPage extends PlayPage {
  private seeks: Seek[] | null = null;
  private timer = 0;
  private readonly box = listBox("seeks", t("play.seeks"), [t("lobby.game"), t("play.clock"), t("play.state"), t("play.actions")]);

  constructor(root: HTMLElement, page: HTMLElement, token: string, titles: ReadonlyMap<string, string>) {
    super(root, page, token, titles);
    page.append(this.box);
  }

  async read(): Promise<void> {
    window.clearTimeout(this.timer);
    try {
      const data = await request<MySeeksQuery>(MY_SEEKS, {}, this.token);
      if (this.left || !data.me) return;
      this.draw(data.me.seeks);
      if (data.me.seeks.some((s) => s.state === "OPEN")) this.timer = window.setTimeout(() => void this.read(), POLL_MS);
    } catch (failure) {
      this.refused(failure);
    }
  }

  stop(): void {
    this.left = true;
    window.clearTimeout(this.timer);
  }

  /** The seeks as they are now; one matched since the last reading takes the page to its game. */
  private draw(found: Seek[]): void {
    const matched = found.find((s) => s.gameId && this.seeks?.some((was) => was.id === s.id && !was.gameId));
    this.seeks = found;
    this.box.querySelector("tbody")!.innerHTML = found.map((s) => row(s, this.titles)).join("") || `<tr><td colspan="4" class="quiet">${t("play.noSeeks")}</td></tr>`;
    if (matched?.gameId) this.opened(matched.gameId);
  }

  private opened(gameId: string): void {
    this.page.querySelector("#told")!.textContent = t("play.matched");
    location.hash = gameLink(gameId);
  }

  async join(form: HTMLFormElement): Promise<void> {
    const fields = new FormData(form);
    const input = { variant: String(fields.get("variant")), players: Number(fields.get("players")), rated: true, clock: { turnSeconds: Number(fields.get("turnSeconds")) } };
    form.querySelector(".error")!.textContent = "";
    try {
      const joined = checked((await request<JoinSeekMutation>(JOIN_SEEK, { input }, this.token)).joinSeek).seek;
      if (joined?.gameId) return this.opened(joined.gameId);
      this.page.querySelector("#told")!.textContent = t("play.joined");
      await this.read();
    } catch (failure) {
      this.refused(failure, form.querySelector(".error")!);
    }
  }

  async cancel(button: HTMLButtonElement, seekId: string): Promise<void> {
    button.disabled = true;
    try {
      checked((await request<CancelSeekMutation>(CANCEL_SEEK, { input: { seekId } }, this.token)).cancelSeek);
      this.page.querySelector("#told")!.textContent = t("play.seek.CANCELLED");
      await this.read();
      this.focusTold();
    } catch (failure) {
      button.disabled = false;
      this.refused(failure);
    }
  }
}

export function showPool(root: HTMLElement, variants: readonly Variant[]): () => void {
  const token = loggedIn(root);
  if (!token) return () => {};
  const page = html(`<main class="play" id="main"><h1>${t("play.pool")}</h1><p>${t("play.poolRules")}</p>
    ${poolForm(variants)}<p class="quiet" role="status" id="told" tabindex="-1"></p><p class="error" role="alert" id="refused"></p></main>`);
  const shown = new PoolPage(root, page, token, new Map(variants.map((v) => [v.name, v.title])));
  root.replaceChildren(page);
  const form = page.querySelector<HTMLFormElement>("#seek")!;
  on(form, "submit", async (event) => {
    event.preventDefault();
    await shown.join(form);
  });
  on(page, "click", async (event) => {
    const button = (event.target as HTMLElement).closest<HTMLButtonElement>("button[data-cancel]");
    const id = button?.closest<HTMLElement>("tr")?.dataset.seek;
    if (button && id) await shown.cancel(button, id);
  });
  void shown.read();
  return () => shown.stop();
}
