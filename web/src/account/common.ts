// What the account pages share: a refusal in words, dates, a game's result for the account,
// and the page shown when the page needs a session and there is none (or it has ended).

import { ApiError } from "../api";
import { html } from "../dom";
import { errorText } from "../errors";
import { currentLocale, t, tOr } from "../i18n";
import { session } from "./session";

/** A refusal in words: an account page's own sentence for a code where the game's would
 * mislead (a name's rules differ), else the code's sentence everyone shows. */
export function accountError(failure: unknown): string {
  if (failure instanceof ApiError) return tOr(`account.error.${failure.code}`, errorText(failure));
  return errorText(failure);
}

export function date(iso: string | null | undefined): string {
  if (!iso) return "—";
  return new Intl.DateTimeFormat(currentLocale(), { dateStyle: "medium" }).format(new Date(iso));
}

/** The account's place in a game: won, its rank once finished, else nothing yet. */
export function result(edge: { rank: number | null; won: boolean }): string {
  if (edge.won) return t("account.won");
  return edge.rank === null ? "—" : t("account.rank", { rank: edge.rank });
}

/** A page for the logged-in account: null, and a page that says to log in, if there is none. */
export function loggedIn(root: HTMLElement): string | null {
  const token = session.token();
  if (token) return token;
  root.replaceChildren(loginFirst(t("account.loginFirst")));
  return null;
}

/** When the server no longer knows the session (it ended elsewhere, or expired): forgotten,
 * and the page says so. */
export function sessionEnded(root: HTMLElement, failure: unknown): boolean {
  if (!(failure instanceof ApiError) || failure.code !== "UNAUTHENTICATED") return false;
  session.forget();
  root.replaceChildren(loginFirst(t("account.ended")));
  return true;
}

function loginFirst(why: string): HTMLElement {
  const page = html(`<main class="account" id="main"><h1></h1><p><a href="#/login"></a></p></main>`);
  page.querySelector("h1")!.textContent = why;
  page.querySelector("a")!.textContent = t("account.login");
  return page;
}
