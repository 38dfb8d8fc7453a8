// An account's public profile (account(name)): bot or person, since when, its games counted
// and listed with its results, as anyone sees them.

import { request } from "../api";
import { escape, html } from "../dom";
import type { ProfileQuery } from "../generated/graphql";
import { t } from "../i18n";
import { accountError, date } from "./common";
import { PROFILE } from "./documents";
import { gameTable } from "./game-list";
import { ratingsSection } from "../ratings/profile";

type Profile = NonNullable<ProfileQuery["account"]>;

function summary(account: Profile): string {
  const badge = account.bot ? ` <span class="badge">${t("account.bot")}</span>` : "";
  const { played, finished, won } = account.results;
  return `<h1>${escape(account.name)}${badge}</h1>
    <p class="quiet">${t(account.bot ? "account.botSince" : "account.personSince", { date: date(account.createdAt) })}</p>
    <dl class="results">
      <div><dt>${t("account.played")}</dt><dd>${played}</dd></div>
      <div><dt>${t("account.finished")}</dt><dd>${finished}</dd></div>
      <div><dt>${t("account.wins")}</dt><dd>${won}</dd></div>
    </dl>
    <h2>${t("account.games")}</h2>`;
}

export function showProfile(root: HTMLElement, name: string, titles: ReadonlyMap<string, string>): () => void {
  const page = html(`<main class="account profile" id="main"><p role="status">…</p></main>`);
  root.replaceChildren(page);
  let left = false;
  void request<ProfileQuery>(PROFILE, { name })
    .then((data) => {
      if (left) return;
      const account = data.account;
      if (!account) return void page.replaceChildren(html(`<h1>${t("account.noSuchAccount")}</h1>`));
      page.innerHTML = summary(account);
      page.insertBefore(ratingsSection(account.name, titles), page.querySelector("h2"));
      const table = gameTable(t("account.games"), titles);
      table.add(account.games.edges);
      page.append(table.element);
    })
    .catch((failure) => {
      if (!left) page.replaceChildren(Object.assign(html(`<p class="error" role="alert"></p>`), { textContent: accountError(failure) }));
    });
  return () => void (left = true);
}
