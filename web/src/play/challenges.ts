// Challenges, #/me/challenges: make one (2 to 5 accounts by name, the game, rated or not, a
// clock as the lobby's form offers), answer those made to the account (accept, decline), cancel
// its own; each one's state, and once its game started a link to it (the page goes there when
// it started while the page is shown). Live through challengeNews.

import { loggedIn } from "../account/common";
import { checked, request, subscribe } from "../api";
import { escape, html, on } from "../dom";
import type { ChallengeAccountsMutation, ChallengeFieldsFragment, ChallengeNewsSubscription, MyChallengesQuery } from "../generated/graphql";
import { list, t } from "../i18n";
import type { Variant } from "../map/draw";
import { gameLink } from "../routes";
import { clockText, gameChoice, gameLinkText, listBox, PlayPage } from "./common";
import { ACCEPT_CHALLENGE, CANCEL_CHALLENGE, CHALLENGE_ACCOUNTS, CHALLENGE_NEWS, DECLINE_CHALLENGE, MY_CHALLENGES } from "./documents";

type Challenge = ChallengeFieldsFragment;
type Payload = { challenge: Challenge | null; userErrors: { code: string; message: string }[] };
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

/** The page, live: the challenges known by id, drawn in two lists. */
class ChallengesPage extends PlayPage {
  private readonly known = new Map<string, Challenge>();
  private readonly incoming: HTMLElement;
  private readonly outgoing: HTMLElement;
  private me = "";

  constructor(root: HTMLElement, page: HTMLElement, token: string, titles: ReadonlyMap<string, string>) {
    super(root, page, token, titles);
    const columns = [t("play.who"), t("lobby.game"), t("play.state"), t("play.actions")];
    this.incoming = listBox("incoming", t("play.incoming"), columns);
    this.outgoing = listBox("outgoing", t("play.outgoing"), columns);
    page.append(this.incoming, this.outgoing);
  }

  async load(): Promise<void> {
    const data = await request<MyChallengesQuery>(MY_CHALLENGES, {}, this.token);
    if (this.left || !data.me) return;
    this.me = data.me.name;
    for (const challenge of data.me.challenges) this.known.set(challenge.id, challenge);
    this.draw();
  }

  /** A challenge as it is now; `live`, a change to tell (and a game started to go to). */
  update(challenge: Challenge, live: boolean): void {
    const before = this.known.get(challenge.id);
    this.known.set(challenge.id, challenge);
    if (!this.me) return; // drawn once the account's challenges are read
    this.draw();
    if (live && before?.status !== challenge.status) this.page.querySelector("#told")!.textContent = stateText(challenge);
    if (live && challenge.gameId && !before?.gameId) location.hash = gameLink(challenge.gameId);
  }

  private draw(): void {
    const all = [...this.known.values()].sort((a, b) => b.expiresAt.localeCompare(a.expiresAt));
    for (const [box, mine] of [[this.outgoing, true], [this.incoming, false]] as const) {
      const rows = all.filter((c) => (c.challenger?.name === this.me) === mine).map((c) => row(c, this.me, this.titles));
      box.querySelector("tbody")!.innerHTML = rows.join("") || `<tr><td colspan="4" class="quiet">${t("play.noChallenges")}</td></tr>`;
    }
  }

  /** Accept, decline or cancel, by the row's button. */
  async answer(button: HTMLButtonElement, id: string): Promise<void> {
    const answer = button.dataset.answer as keyof typeof ANSWERS;
    button.disabled = true;
    this.page.querySelector("#refused")!.textContent = "";
    try {
      const data = await request<Record<string, Payload>>(ANSWERS[answer], { input: { challengeId: id } }, this.token);
      const payload = checked(Object.values(data)[0]);
      if (payload.challenge) this.update(payload.challenge, true);
      this.focusTold();
    } catch (failure) {
      button.disabled = false;
      this.refused(failure);
    }
  }

  async make(form: HTMLFormElement): Promise<void> {
    const fields = new FormData(form);
    const names = String(fields.get("names")).split(/[\s,]+/).filter(Boolean);
    const turnSeconds = Number(fields.get("turnSeconds"));
    const input = { names, variant: String(fields.get("variant")), rated: fields.get("rated") === "on", ...(turnSeconds > 0 ? { clock: { turnSeconds } } : {}) };
    form.querySelector(".error")!.textContent = "";
    try {
      const made = checked((await request<ChallengeAccountsMutation>(CHALLENGE_ACCOUNTS, { input }, this.token)).challengeAccounts);
      if (made.challenge) this.update(made.challenge, false);
      form.reset();
    } catch (failure) {
      this.refused(failure, form.querySelector(".error")!);
    }
  }
}

export function showChallenges(root: HTMLElement, variants: readonly Variant[]): () => void {
  const token = loggedIn(root);
  if (!token) return () => {};
  const page = html(`<main class="play" id="main"><h1>${t("play.challenges")}</h1>
    ${challengeForm(variants)}
    <p class="quiet" role="status" id="told" tabindex="-1"></p><p class="error" role="alert" id="refused"></p></main>`);
  const shown = new ChallengesPage(root, page, token, new Map(variants.map((v) => [v.name, v.title])));
  root.replaceChildren(page);
  on(page, "click", async (event) => {
    const button = (event.target as HTMLElement).closest<HTMLButtonElement>("button[data-answer]");
    const id = button?.closest<HTMLElement>("tr")?.dataset.challenge;
    if (button && id) await shown.answer(button, id);
  });
  const form = page.querySelector<HTMLFormElement>("#challenge")!;
  on(form, "submit", async (event) => {
    event.preventDefault();
    await shown.make(form);
  });
  shown.load().catch((failure) => shown.refused(failure));
  const stop = subscribe<ChallengeNewsSubscription>(CHALLENGE_NEWS, {}, token, (data) => shown.update(data.challengeNews.challenge, true));
  return () => {
    shown.left = true;
    stop();
  };
}
