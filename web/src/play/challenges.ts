// Challenges, #/me/challenges: make one (2 to 5 accounts by name, the game, rated or not, a
// clock as the lobby's form offers), answer those made to the account (accept, decline), cancel
// its own; each one's state, and once its game started a link to it (the page goes there when
// it started while the page is shown). Live through challengeNews.

import { accountError, loggedIn, sessionEnded } from "../account/common";
import { checked, request, subscribe } from "../api";
import { escape, html, on } from "../dom";
import type { ChallengeAccountsMutation, ChallengeFieldsFragment, MyChallengesQuery } from "../generated/graphql";
import { list, t } from "../i18n";
import type { Variant } from "../map/draw";
import { gameLink } from "../routes";
import { clockText, gameChoice, gameLinkText, listBox } from "./common";
import { ACCEPT_CHALLENGE, CANCEL_CHALLENGE, CHALLENGE_ACCOUNTS, CHALLENGE_NEWS, DECLINE_CHALLENGE, MY_CHALLENGES } from "./documents";

type Challenge = ChallengeFieldsFragment;
const ANSWERS = { accept: ACCEPT_CHALLENGE, decline: DECLINE_CHALLENGE, cancel: CANCEL_CHALLENGE } as const;

function challengeForm(variants: readonly Variant[]): string {
  return `<form id="challenge" class="play-form">
    <label>${t("play.names")} <input name="names" required autocomplete="off" aria-describedby="names-help"></label>
    <small id="names-help" class="quiet">${t("play.namesHelp")}</small>
    ${gameChoice(variants)}
    <label>${t("lobby.turnSeconds")} <input name="turnSeconds" type="number" min="1" placeholder="${t("lobby.noClock")}" inputmode="numeric"></label>
    <label class="check"><input name="rated" type="checkbox"> ${t("play.rated")}</label>
    <button type="submit">${t("play.challenge")}</button>
    <p class="error" role="alert"></p>
  </form>`;
}

function stateText(challenge: Challenge): string {
  if (challenge.status === "DECLINED") return t("play.status.DECLINED", { name: challenge.declinedBy?.name ?? "" });
  if (challenge.status === "OPEN") {
    const accepted = challenge.accepted.map((a) => a.name);
    return accepted.length ? t("play.acceptedBy", { names: list(accepted) }) : t("play.status.OPEN");
  }
  return t(`play.status.${challenge.status}`);
}

function row(challenge: Challenge, me: string, titles: ReadonlyMap<string, string>): string {
  const mine = challenge.challenger?.name === me;
  const others = mine ? challenge.challenged.map((a) => a.name) : [challenge.challenger?.name ?? "—"];
  const answered = challenge.accepted.some((a) => a.name === me);
  const open = challenge.status === "OPEN";
  const buttons = !open
    ? gameLinkText(challenge.gameId)
    : mine
      ? `<button type="button" data-answer="cancel">${t("play.cancel")}</button>`
      : answered
        ? ""
        : `<button type="button" data-answer="accept">${t("play.accept")}</button> <button type="button" data-answer="decline">${t("play.decline")}</button>`;
  const rated = challenge.rated ? ` · ${t("play.ratedShort")}` : "";
  return `<tr data-challenge="${escape(challenge.id)}" data-status="${challenge.status}">
    <th scope="row">${escape(list(others))}</th>
    <td>${escape(titles.get(challenge.variant) ?? challenge.variant)} · ${clockText(challenge.clock)}${rated}</td>
    <td class="state">${escape(stateText(challenge))}</td>
    <td>${buttons}</td></tr>`;
}

export function showChallenges(root: HTMLElement, variants: readonly Variant[]): () => void {
  const token = loggedIn(root);
  if (!token) return () => {};
  const titles = new Map(variants.map((v) => [v.name, v.title]));
  const page = html(`<main class="play" id="main"><h1>${t("play.challenges")}</h1>
    ${challengeForm(variants)}
    <p class="quiet" role="status" id="told"></p><p class="error" role="alert" id="refused"></p></main>`);
  const columns = [t("play.who"), t("lobby.game"), t("play.state"), t("play.actions")];
  const incoming = listBox("incoming", t("play.incoming"), columns);
  const outgoing = listBox("outgoing", t("play.outgoing"), columns);
  page.append(incoming, outgoing);
  root.replaceChildren(page);
  const known = new Map<string, Challenge>();
  let me = "";
  let left = false;
  const refused = (failure: unknown): void => {
    if (!left && !sessionEnded(root, failure)) page.querySelector("#refused")!.textContent = accountError(failure);
  };
  const draw = (): void => {
    const all = [...known.values()].sort((a, b) => b.expiresAt.localeCompare(a.expiresAt));
    for (const [box, mine] of [[outgoing, true], [incoming, false]] as const) {
      const rows = all.filter((c) => (c.challenger?.name === me) === mine).map((c) => row(c, me, titles));
      box.querySelector("tbody")!.innerHTML = rows.join("") || `<tr><td colspan="4" class="quiet">${t("play.noChallenges")}</td></tr>`;
    }
  };
  const update = (challenge: Challenge, live: boolean): void => {
    const before = known.get(challenge.id);
    known.set(challenge.id, challenge);
    draw();
    if (live && before?.status !== challenge.status) page.querySelector("#told")!.textContent = stateText(challenge);
    if (live && challenge.gameId && !before?.gameId) location.hash = gameLink(challenge.gameId);
  };
  on(page, "click", async (event) => {
    const button = (event.target as HTMLElement).closest<HTMLButtonElement>("button[data-answer]");
    const id = button?.closest<HTMLElement>("tr")?.dataset.challenge;
    if (!button || !id) return;
    const answer = button.dataset.answer as keyof typeof ANSWERS;
    button.disabled = true;
    page.querySelector("#refused")!.textContent = "";
    try {
      const data = await request<Record<string, { challenge: Challenge | null; userErrors: { code: string; message: string }[] }>>(ANSWERS[answer], { input: { challengeId: id } }, token);
      const payload = checked(Object.values(data)[0]);
      if (payload.challenge) update(payload.challenge, true);
    } catch (failure) {
      button.disabled = false;
      refused(failure);
    }
  });
  const form = page.querySelector<HTMLFormElement>("#challenge")!;
  on(form, "submit", async (event) => {
    event.preventDefault();
    const fields = new FormData(form);
    const names = String(fields.get("names")).split(/[\s,]+/).filter(Boolean);
    const turnSeconds = Number(fields.get("turnSeconds"));
    const input = { names, variant: String(fields.get("variant")), rated: fields.get("rated") === "on", ...(turnSeconds > 0 ? { clock: { turnSeconds } } : {}) };
    form.querySelector(".error")!.textContent = "";
    try {
      const made = checked((await request<ChallengeAccountsMutation>(CHALLENGE_ACCOUNTS, { input }, token)).challengeAccounts);
      if (made.challenge) update(made.challenge, false);
      form.reset();
    } catch (failure) {
      if (!sessionEnded(root, failure)) form.querySelector(".error")!.textContent = accountError(failure);
    }
  });
  request<MyChallengesQuery>(MY_CHALLENGES, {}, token)
    .then((data) => {
      if (left || !data.me) return;
      me = data.me.name;
      for (const challenge of data.me.challenges) known.set(challenge.id, challenge);
      draw();
    })
    .catch(refused);
  const stop = subscribe<{ challengeNews: { challenge: Challenge } }>(CHALLENGE_NEWS, {}, token, (data) => {
    if (me) update(data.challengeNews.challenge, true);
  });
  return () => {
    left = true;
    stop();
  };
}
