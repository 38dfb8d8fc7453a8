// What the logged-in account may do on a tournament's page: register or withdraw while the
// registration is open; and, for its organiser, close the registration and start the next
// round. Each answer is the tournament as it is now, or the API's refusal in words.

import { session } from "../account";
import { ApiError, checked, request, type Json } from "../api";
import { escape, html, on } from "../dom";
import { errorText } from "../errors";
import type {
  CloseTournamentRegistrationMutation,
  RegisterForTournamentMutation,
  StartTournamentRoundMutation,
  WithdrawFromTournamentMutation,
} from "../generated/graphql";
import { t, tOr } from "../i18n";
import { CLOSE_TOURNAMENT_REGISTRATION, REGISTER_FOR_TOURNAMENT, START_TOURNAMENT_ROUND, WITHDRAW_FROM_TOURNAMENT } from "./documents";
import type { Tournament } from "./view";

type Payload = { tournament: Tournament | null; userErrors: { code: string; message: string }[] };
type Command = { label: string; name: string; send: (input: Json, token: string) => Promise<Payload> };

const REGISTER: Command["send"] = async (input, token) =>
  (await request<RegisterForTournamentMutation>(REGISTER_FOR_TOURNAMENT, { input }, token)).registerForTournament;
const WITHDRAW: Command["send"] = async (input, token) =>
  (await request<WithdrawFromTournamentMutation>(WITHDRAW_FROM_TOURNAMENT, { input }, token)).withdrawFromTournament;
const CLOSE: Command["send"] = async (input, token) =>
  (await request<CloseTournamentRegistrationMutation>(CLOSE_TOURNAMENT_REGISTRATION, { input }, token)).closeTournamentRegistration;
const START: Command["send"] = async (input, token) =>
  (await request<StartTournamentRoundMutation>(START_TOURNAMENT_ROUND, { input }, token)).startTournamentRound;

/** A refusal in words: the tournament's own sentence for a code whose game's sentence would
 * mislead (a tournament for bots, too few players to seat a round), else the code's. */
export function tournamentError(failure: unknown): string {
  if (failure instanceof ApiError) return tOr(`tournament.error.${failure.code}`, errorText(failure));
  return errorText(failure);
}

function registrationOpen(tournament: Tournament): boolean {
  return tournament.status === "REGISTERING" && Date.parse(tournament.registrationClosesAt) > Date.now();
}

/** The commands the account has here now. */
function commands(tournament: Tournament, name: string): Command[] {
  const found: Command[] = [];
  if (registrationOpen(tournament)) {
    const entered = tournament.entrants.some((entrant) => entrant.name === name);
    found.push(entered ? { label: t("tournament.withdraw"), name: "withdraw", send: WITHDRAW } : { label: t("tournament.register"), name: "register", send: REGISTER });
  }
  if (tournament.organiser?.name !== name || tournament.status === "FINISHED") return found;
  if (tournament.status === "REGISTERING") found.push({ label: t("tournament.close"), name: "close", send: CLOSE });
  const next = tournament.roundsPlayed.length + 1;
  if (next <= tournament.rounds) {
    const start: Command["send"] = (input, token) => START({ ...input, round: next }, token);
    found.push({ label: t("tournament.start", { number: next }), name: "start", send: start });
  }
  return found;
}

/** The commands' part of the page, drawn anew when the tournament changes; `changed` is told
 * the tournament a command answered with, and `error` (the page's, kept across redraws: news
 * may come before the refusal is read) says why a command was refused. */
export function controls(tournament: Tournament, changed: (next: Tournament) => void, error: HTMLElement): HTMLElement {
  const account = session.get();
  const box = html(`<section class="controls" aria-label="${escape(t("tournament.yourPart"))}"><p class="buttons"></p></section>`);
  const buttons = box.querySelector(".buttons")!;
  if (!account) {
    if (registrationOpen(tournament)) buttons.innerHTML = `<a href="#/login">${t("tournament.loginToRegister")}</a>`;
    return box;
  }
  const entered = tournament.entrants.some((entrant) => entrant.name === account.name);
  if (entered) buttons.append(html(`<span class="quiet">${t("tournament.registered")}</span>`));
  for (const command of commands(tournament, account.name)) {
    const button = html(`<button type="button" data-command="${command.name}">${escape(command.label)}</button>`) as HTMLButtonElement;
    let busy = false; // one request at a time (the button stays focusable, unlike disabled)
    on(button, "click", async () => {
      if (busy) return;
      busy = true;
      error.textContent = "";
      try {
        const answer = checked(await command.send({ tournamentId: tournament.id }, account.token));
        if (answer.tournament) changed(answer.tournament);
      } catch (failure) {
        error.textContent = tournamentError(failure);
      } finally {
        busy = false;
      }
    });
    buttons.append(button, " ");
  }
  return box;
}
