// What the challenge and pool pages share: the game's choice, a clock said in words, a list's
// table, the link to a game once it started, and a page's session and refusals in words.

import { accountError, sessionEnded } from "../account/common";
import { escape, html } from "../dom";
import { t } from "../i18n";
import type { Variant } from "../map/draw";
import { gameLink } from "../routes";

export function gameChoice(variants: readonly Variant[]): string {
  const games = variants.map((v) => `<option value="${escape(v.name)}">${escape(v.title)}</option>`).join("");
  return `<label>${t("lobby.variant")} <select name="variant">${games}</select></label>`;
}

const UNITS = [
  [86400, "play.days"],
  [3600, "play.hours"],
  [60, "play.minutes"],
] as const;

/** A time in the largest unit that divides it: "2 minutes", "1 day", "90 seconds". */
function duration(seconds: number): string {
  const unit = UNITS.find(([size]) => seconds % size === 0);
  return unit ? t(unit[1], { count: seconds / unit[0] }) : t("play.seconds", { count: seconds });
}

/** "2 minutes a turn", "a bank of 30 minutes", or "no clock". */
export function clockText(clock: { turnSeconds?: number | null; bankSeconds?: number | null } | null | undefined): string {
  if (clock?.turnSeconds) return t("play.clockTurn", { time: duration(clock.turnSeconds) });
  if (clock?.bankSeconds) return t("play.clockBank", { time: duration(clock.bankSeconds) });
  return t("play.noClock");
}

export function gameLinkText(gameId: string | null | undefined): string {
  return gameId ? `<a href="${gameLink(gameId)}" class="open-game">${t("play.openGame")}</a>` : "";
}

/** A list's box: a heading, a live status line, the rows' table with its header. */
export function listBox(id: string, title: string, columns: readonly string[]): HTMLElement {
  const head = columns.map((c) => `<th scope="col">${c}</th>`).join("");
  return html(`<section aria-labelledby="${id}-title"><h2 id="${id}-title">${escape(title)}</h2>
    <div class="table-scroll" tabindex="0" role="region" aria-label="${escape(title)}"><table class="${id}-table">
    <thead><tr>${head}</tr></thead><tbody></tbody></table></div></section>`);
}

/** What both pages keep: the account's session, the page drawn, and a refusal told in words
 * (the session ended: the page says to log in again). */
export class PlayPage {
  left = false;

  constructor(
    protected readonly root: HTMLElement,
    protected readonly page: HTMLElement,
    protected readonly token: string,
    protected readonly titles: ReadonlyMap<string, string>,
  ) {}

  /** After a row's button, redrawn away with its row: the keyboard's focus to what was told. */
  protected focusTold(): void {
    this.page.querySelector<HTMLElement>("#told")?.focus();
  }

  refused(failure: unknown, where = this.page.querySelector("#refused")!): void {
    if (!this.left && !sessionEnded(this.root, failure)) where.textContent = accountError(failure);
  }
}
