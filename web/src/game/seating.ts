// A game not started yet: take a seat (told first, and asked to confirm, when its creator
// chose the seed), or, seated, add a bot, start it, or leave. Logged in, the seat is the
// account's: joined with its session, which then acts for the seat (no seat token is kept).

import { session } from "../account";
import { checked, request, tokens } from "../api";
import { ADD_BOT, JOIN, LEAVE, START } from "../documents";
import { escape, html, on } from "../dom";
import { randomHex, sentSeeds } from "../seeds";
import type { AddBotMutation, JoinGameMutation, LeaveGameMutation, StartGameMutation } from "../generated/graphql";
import { t } from "../i18n";
import { errorText } from "../errors";
import type { State } from "./context";

export interface Seating {
  gameId: string;
  state: State;
  token: string | null;
  /** The page's seat changed (joined, left): follow the game as the new token sees it. */
  seated(token: string | null): Promise<void>;
}

function joinForm(s: Seating): HTMLElement {
  const warning = s.state.seedChosen
    ? `<p class="warn" role="alert">${t("seating.chosenSeed")}</p><label class="confirm"><input type="checkbox" name="acceptChosenSeed" required> ${t("seating.accept")}</label>`
    : "";
  const account = session.get();
  const name = account
    ? `<p>${t("seating.asAccount", { name: escape(account.name) })}</p>`
    : `<label>${t("seating.name")} <input name="name" required maxlength="40" autocomplete="nickname"></label>`;
  const form = html(`<form class="join">${warning}${name} <button>${t(s.state.seedChosen ? "seating.joinAnyway" : "seating.join")}</button><p class="error" role="alert"></p></form>`) as HTMLFormElement;
  on(form, "submit", async (event) => {
    event.preventDefault();
    const clientSeed = randomHex(); // this seat's contribution to the dice's seed
    const input = account ? { gameId: s.gameId, clientSeed } : { gameId: s.gameId, name: String(new FormData(form).get("name")), clientSeed };
    try {
      const joined = checked((await request<JoinGameMutation>(JOIN, { input }, account?.token)).joinGame);
      if (joined.token) tokens.set(s.gameId, joined.token); // a guest's seat: its own token
      if (joined.clientSeedAccepted) sentSeeds.keep(s.gameId, clientSeed);
      await s.seated(joined.token ?? account!.token);
    } catch (failure) {
      form.querySelector(".error")!.textContent = errorText(failure);
    }
  });
  return form;
}

function seatedButtons(s: Seating): HTMLElement {
  const box = html(`<div class="buttons"><button type="button" data-do="bot">${t("seating.addBot")}</button> <button type="button" data-do="start">${t("seating.start")}</button> <button type="button" data-do="leave">${t("seating.leave")}</button><p class="error" role="alert"></p></div>`);
  const input = { input: { gameId: s.gameId } };
  const act: Record<string, () => Promise<void>> = {
    bot: async () => void checked((await request<AddBotMutation>(ADD_BOT, input, s.token)).addBot),
    start: async () => {
      // A fresh contribution, given now that every other is fixed: the last one, so nobody
      // could have chosen theirs knowing it.
      const clientSeed = randomHex();
      const started = checked((await request<StartGameMutation>(START, { input: { gameId: s.gameId, clientSeed } }, s.token)).startGame);
      if (started.clientSeedAccepted) sentSeeds.keep(s.gameId, clientSeed);
    },
    leave: async () => {
      checked((await request<LeaveGameMutation>(LEAVE, input, s.token)).leaveGame);
      tokens.forget(s.gameId);
      await s.seated(null);
    },
  };
  for (const button of box.querySelectorAll<HTMLButtonElement>("button")) {
    on(button, "click", async () => {
      try {
        await act[button.dataset.do!]();
      } catch (failure) {
        box.querySelector(".error")!.textContent = errorText(failure);
      }
    });
  }
  return box;
}

export function renderSeating(box: HTMLElement, s: Seating): void {
  const seating = html(`<div class="seating"><h2>${t("seating.title")}</h2></div>`);
  seating.append(s.token && s.state.viewerSeat !== null ? seatedButtons(s) : joinForm(s));
  seating.append(html(`<p class="quiet">${t("seating.count", { count: s.state.players.length })}</p>`));
  box.replaceChildren(seating);
}
