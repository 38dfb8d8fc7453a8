// "My tokens": the account's personal API tokens (for a program: a bot, a script), made with
// the permissions chosen and an expiry, the token shown once with a button to copy it (the
// server keeps only its hash), and revoked with one click.

import { checked, request } from "../api";
import { escape, html, on } from "../dom";
import type { CreateApiTokenMutation, MyTokensQuery, RevokeApiTokenMutation, Scope } from "../generated/graphql";
import { list, t } from "../i18n";
import { accountError, date, loggedIn, sessionEnded } from "./common";
import { CREATE_TOKEN, MY_TOKENS, REVOKE_TOKEN } from "./documents";

const SCOPES: readonly Scope[] = ["GAMES_READ", "GAMES_PLAY", "GAMES_CREATE", "TOURNAMENTS_ORGANISE", "ACCOUNT_MANAGE"];
const EXPIRIES = [7, 30, 90, 366];

function createForm(): string {
  const scopes = SCOPES.map(
    (scope) => `<label class="check"><input type="checkbox" name="scopes" value="${scope}"${scope.startsWith("GAMES_") ? " checked" : ""}> ${t(`scope.${scope}`)}</label>`,
  ).join("");
  const expiries = EXPIRIES.map((days) => `<option value="${days}"${days === 90 ? " selected" : ""}>${t("account.inDays", { days })}</option>`).join("");
  return `<form id="new-token">
    <label>${t("account.tokenName")} <input name="name" required maxlength="40"></label>
    <fieldset><legend>${t("account.scopes")}</legend>${scopes}</fieldset>
    <label>${t("account.expires")} <select name="expires">${expiries}<option value="">${t("account.never")}</option></select></label>
    <button type="submit">${t("account.createToken")}</button>
    <p class="error" role="alert"></p>
  </form>`;
}

/** The new token, shown this once, with a button that copies it. */
function shownOnce(token: string): HTMLElement {
  const box = html(`<div class="new-token" role="status"><p>${t("account.copyNow")}</p><p><code></code> <button type="button">${t("account.copy")}</button> <span class="quiet"></span></p></div>`);
  box.querySelector("code")!.textContent = token;
  const copied = box.querySelector<HTMLSpanElement>("span")!;
  on(box.querySelector("button")!, "click", async () => {
    try {
      await navigator.clipboard.writeText(token);
      copied.textContent = t("account.copied");
    } catch {
      // No clipboard here (plain HTTP from another host): the token selected, to copy by hand.
      getSelection()?.selectAllChildren(box.querySelector("code")!);
      copied.textContent = t("account.copyByHand");
    }
  });
  return box;
}

type Token = NonNullable<MyTokensQuery["me"]>["tokens"][number];

function row(token: Token): string {
  const scopes = list(token.scopes.map((scope) => t(`scope.${scope}`)));
  return `<tr data-token="${escape(token.id)}"><td>${escape(token.name)}</td><td>${escape(scopes)}</td><td>${date(token.createdAt)}</td>
    <td>${date(token.lastUsedAt)}</td><td>${token.expiresAt ? date(token.expiresAt) : t("account.never")}</td>
    <td><button type="button" aria-label="${escape(t("account.revokeNamed", { name: token.name }))}">${t("account.revoke")}</button></td></tr>`;
}

export function showTokens(root: HTMLElement): () => void {
  const token = loggedIn(root);
  if (!token) return () => {};
  const page = html(`<main class="account" id="main"><h1>${t("account.myTokens")}</h1><p class="quiet">${t("account.tokensHelp")}</p>
    <section aria-labelledby="new-title"><h2 id="new-title">${t("account.newToken")}</h2>${createForm()}<div id="shown"></div></section>
    <section aria-labelledby="list-title"><h2 id="list-title">${t("account.tokens")}</h2><p class="error" role="alert"></p>
      <div class="table-scroll" tabindex="0" role="region" aria-label="${t("account.tokens")}"><table><thead><tr><th scope="col">${t("account.tokenName")}</th><th scope="col">${t("account.scopes")}</th><th scope="col">${t("account.created")}</th><th scope="col">${t("account.lastUsed")}</th><th scope="col">${t("account.expires")}</th><th scope="col"><span class="visually-hidden">${t("account.revoke")}</span></th></tr></thead><tbody id="tokens"></tbody></table></div>
    </section></main>`);
  root.replaceChildren(page);
  const rows = page.querySelector<HTMLTableSectionElement>("#tokens")!;
  const listError = page.querySelector<HTMLParagraphElement>("section:last-child .error")!;

  const refresh = async (): Promise<void> => {
    try {
      const tokens = (await request<MyTokensQuery>(MY_TOKENS, {}, token)).me!.tokens;
      rows.innerHTML = tokens.map(row).join("") || `<tr><td colspan="6" class="quiet">${t("account.noTokens")}</td></tr>`;
      for (const button of rows.querySelectorAll<HTMLButtonElement>("button")) {
        const id = button.closest("tr")!.dataset.token!;
        on(button, "click", async () => {
          try {
            checked((await request<RevokeApiTokenMutation>(REVOKE_TOKEN, { input: { id } }, token)).revokeApiToken);
            await refresh();
          } catch (failure) {
            listError.textContent = accountError(failure);
          }
        });
      }
    } catch (failure) {
      if (!sessionEnded(root, failure)) listError.textContent = accountError(failure);
    }
  };

  const form = page.querySelector<HTMLFormElement>("#new-token")!;
  on(form, "submit", async (event) => {
    event.preventDefault();
    const error = form.querySelector<HTMLParagraphElement>(".error")!;
    error.textContent = "";
    const fields = new FormData(form);
    const expires = String(fields.get("expires"));
    const input = { name: String(fields.get("name")), scopes: fields.getAll("scopes"), expiresInDays: expires ? Number(expires) : null };
    try {
      const made = checked((await request<CreateApiTokenMutation>(CREATE_TOKEN, { input }, token)).createApiToken);
      page.querySelector("#shown")!.replaceChildren(shownOnce(made.token!));
      form.reset();
      await refresh();
    } catch (failure) {
      error.textContent = accountError(failure);
    }
  });
  void refresh();
  return () => {};
}
