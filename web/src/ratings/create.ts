// The lobby's "rated" choice, for a logged-in account: its rules told beside it (accounts
// only, so no bots the server plays; dice nobody chose), and, chosen, the form's bots and
// immediate start set aside (the others join before it starts). A seed typed anyway is
// refused by the API (RATED_GAME_SEEDED), told in words.

import { on } from "../dom";
import { t } from "../i18n";

export function ratedField(): string {
  return `<label class="check"><input name="rated" type="checkbox" aria-describedby="rated-help"> ${t("rating.rateIt")}</label>
    <small id="rated-help" class="quiet">${t("rating.rateItHelp")}</small>`;
}

/** A rated game has no bots the server plays and waits for its accounts to start. */
export function wireRated(form: HTMLFormElement): void {
  const rated = form.querySelector<HTMLInputElement>("input[name=rated]");
  if (!rated) return;
  on(rated, "change", () => {
    for (const name of ["bots", "policy", "start", "accountsOnly"]) {
      const field = form.querySelector<HTMLInputElement | HTMLSelectElement>(`[name=${name}]`);
      if (field) field.disabled = rated.checked;
    }
  });
}
