// What the rating pages share: a rating as shown (a provisional one marked "?", said in words
// to screen readers and on hover), a speed's name, and the pages of a paged table.

import { escape, html, on } from "../dom";
import { errorText } from "../errors";
import { t } from "../i18n";
import type { Speed } from "../routes";

export const SPEEDS: readonly Speed[] = ["REAL_TIME", "CORRESPONDENCE"];

export function speedName(speed: Speed): string {
  return t(speed === "REAL_TIME" ? "rating.speed.REAL_TIME" : "rating.speed.CORRESPONDENCE");
}

/** The number shown, "?" after it while provisional. */
export function ratingText(figures: { rating: number; provisional: boolean }): string {
  if (!figures.provisional) return String(figures.rating);
  const said = escape(t("rating.provisional"));
  return `${figures.rating}<abbr class="provisional" title="${said}" aria-label="${said}">?</abbr>`;
}

/** A signed change of the number shown: +12, −7, ±0. */
export function change(before: number, after: number): string {
  const delta = after - before;
  return delta > 0 ? `+${delta}` : delta < 0 ? `−${-delta}` : "±0";
}

/** A paged table's pages, read into `box`: the first at once, each next one by a "more"
 * button, gone once there is none. `readNext` reads a page and says whether another follows. */
export function readPages(box: HTMLElement, readNext: () => Promise<boolean>): void {
  const failed = (failure: unknown): void => void (box.querySelector(".error")!.textContent = errorText(failure));
  const button = html(`<button type="button" class="more" hidden>${t("rating.more")}</button>`) as HTMLButtonElement;
  on(button, "click", async () => {
    button.disabled = true;
    try {
      button.hidden = !(await readNext());
    } catch (failure) {
      failed(failure);
    } finally {
      button.disabled = false;
    }
  });
  box.append(button);
  readNext()
    .then((next) => void (button.hidden = !next))
    .catch(failed);
}
