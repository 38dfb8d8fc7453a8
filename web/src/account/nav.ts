// The account's part of the bar: log in and sign up, or, logged in, the account's name (its
// profile), its games, its tokens, its challenges, the pool, and logging out.

import { request } from "../api";
import { escape, on } from "../dom";
import type { LogOutMutation } from "../generated/graphql";
import { t } from "../i18n";
import { profileLink } from "../routes";
import { LOG_OUT } from "./documents";
import { session } from "./session";

export function accountNav(): string {
  const current = session.get();
  const links = current
    ? `<a href="${profileLink(current.name)}" class="me">${escape(current.name)}</a> <a href="#/me/games">${t("account.myGames")}</a> <a href="#/me/tokens">${t("account.myTokens")}</a> <a href="#/me/challenges">${t("play.challenges")}</a> <a href="#/me/pool">${t("play.pool")}</a> <button type="button" class="logout">${t("account.logout")}</button>`
    : `<a href="#/login">${t("account.login")}</a> <a href="#/signup">${t("account.signup")}</a>`;
  return `<nav class="account-nav" aria-label="${t("account.nav")}">${links}</nav>`;
}

/** Log out wires: the session ends on the server, and is forgotten here whatever it answers. */
export function wireAccountNav(bar: HTMLElement): void {
  const button = bar.querySelector<HTMLButtonElement>(".account-nav .logout");
  if (!button) return;
  on(button, "click", async () => {
    const token = session.token();
    try {
      if (token) await request<LogOutMutation>(LOG_OUT, { input: {} }, token);
    } catch {
      // ended already, or the server is away: this browser forgets it all the same
    }
    session.forget();
    location.hash = "#/";
  });
}
