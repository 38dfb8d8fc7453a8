// Signing up and logging in: a name and a password, and the session the server answers with
// kept in the browser (session.ts); then on to the account's games.

import { checked, request } from "../api";
import { escape, html, on } from "../dom";
import type { LogInMutation, RegisterMutation } from "../generated/graphql";
import { t } from "../i18n";
import { accountError } from "./common";
import { LOG_IN, REGISTER } from "./documents";
import { session } from "./session";

type Kind = "signup" | "login";

function markup(kind: Kind): string {
  const signup = kind === "signup";
  const other = signup ? `<a href="#/login">${t("account.haveOne")}</a>` : `<a href="#/signup">${t("account.needOne")}</a>`;
  const passwordHelp = signup ? `<small id="password-help" class="quiet">${t("account.passwordHelp")}</small>` : "";
  return `<main class="account" id="main">
    <h1>${t(signup ? "account.signup" : "account.login")}</h1>
    <form class="auth" data-kind="${kind}">
      <label>${t("account.name")} <input name="name" required maxlength="24" autocomplete="username" autocapitalize="none" spellcheck="false"></label>
      <label>${t("account.password")} <input name="password" type="password" required ${signup ? `minlength="15" maxlength="128" autocomplete="new-password" aria-describedby="password-help"` : `maxlength="512" autocomplete="current-password"`}></label>
      ${passwordHelp}
      <button type="submit">${escape(t(signup ? "account.signupButton" : "account.loginButton"))}</button>
      <p class="error" role="alert"></p>
    </form>
    <p>${other}</p>
  </main>`;
}

export function showAuthForm(root: HTMLElement, kind: Kind): () => void {
  const page = html(markup(kind));
  root.replaceChildren(page);
  const form = page.querySelector<HTMLFormElement>("form")!;
  on(form, "submit", async (event) => {
    event.preventDefault();
    const error = form.querySelector<HTMLParagraphElement>(".error")!;
    error.textContent = "";
    const fields = new FormData(form);
    const input = { name: String(fields.get("name")), password: String(fields.get("password")) };
    try {
      const answer =
        kind === "signup"
          ? checked((await request<RegisterMutation>(REGISTER, { input })).register)
          : checked((await request<LogInMutation>(LOG_IN, { input })).logIn);
      session.set({ token: answer.token!, name: answer.account!.name });
      location.hash = "#/me/games";
    } catch (failure) {
      error.textContent = accountError(failure);
    }
  });
  page.querySelector<HTMLInputElement>("input[name=name]")!.focus();
  return () => {};
}
