// A leaderboard, #/leaderboard/<game>/<speed>/<people|bots>: the accounts rated in a game and
// speed, best first, as the API orders them (by the conservative skill, provisional ratings left
// out), people and bots apart; the game and speed chosen in the page, 50 places a page.

import { request } from "../api";
import { escape, html } from "../dom";
import type { LeaderboardQuery } from "../generated/graphql";
import { t } from "../i18n";
import type { Variant } from "../map/draw";
import { leaderboardLink, profileLink, type Route } from "../routes";
import { readPages, ratingText, speedName, SPEEDS } from "./common";
import { LEADERBOARD } from "./documents";

type Board = Extract<Route, { page: "leaderboard" }>;
type Entry = LeaderboardQuery["leaderboard"]["edges"][number]["node"];

function choices(at: Board, variants: readonly Variant[]): string {
  const games = variants.map((v) => `<option value="${escape(v.name)}"${v.name === at.variant ? " selected" : ""}>${escape(v.title)}</option>`).join("");
  const speeds = SPEEDS.map((s) => `<option value="${s}"${s === at.speed ? " selected" : ""}>${speedName(s)}</option>`).join("");
  const kind = (bots: boolean): string => {
    const current = bots === at.bots ? ' aria-current="page"' : "";
    return `<a href="${leaderboardLink(at.variant, at.speed, bots)}" class="toggle"${current}>${t(bots ? "rating.bots" : "rating.people")}</a>`;
  };
  return `<form class="board-choice">
      <label>${t("lobby.game")} <select name="variant">${games}</select></label>
      <label>${t("rating.speed")} <select name="speed">${speeds}</select></label>
    </form>
    <nav class="board-kind" aria-label="${t("rating.kind")}">${kind(false)} ${kind(true)}</nav>`;
}

function row(entry: Entry): string {
  return `<tr data-account="${escape(entry.account.name)}">
    <td>${entry.place}</td>
    <th scope="row"><a href="${profileLink(entry.account.name)}">${escape(entry.account.name)}</a></th>
    <td>${ratingText(entry.rating)}</td>
    <td>${entry.rating.games}</td>
  </tr>`;
}

export function showLeaderboard(root: HTMLElement, at: Board, variants: readonly Variant[]): () => void {
  const title = variants.find((v) => v.name === at.variant)?.title ?? at.variant;
  const heading = t("rating.boardTitle", { game: title, speed: speedName(at.speed), kind: t(at.bots ? "rating.bots" : "rating.people") });
  const page = html(`<main class="leaderboard" id="main">
    <h1>${escape(heading)}</h1>
    ${choices(at, variants)}
    <p class="quiet">${t("rating.boardRules")}</p>
    <p class="error" role="alert"></p>
    <div class="table-scroll" tabindex="0" role="region" aria-label="${escape(heading)}"><table class="leaderboard-table">
      <thead><tr><th scope="col">${t("rating.place")}</th><th scope="col">${t("seats.player")}</th><th scope="col">${t("rating.rating")}</th><th scope="col">${t("rating.games")}</th></tr></thead>
      <tbody></tbody></table></div>
  </main>`);
  root.replaceChildren(page);
  const form = page.querySelector<HTMLFormElement>("form.board-choice")!;
  form.addEventListener("change", () => {
    const chosen = new FormData(form);
    location.hash = leaderboardLink(String(chosen.get("variant")), chosen.get("speed") as Board["speed"], at.bots);
  });
  const body = page.querySelector("tbody")!;
  let left = false;
  let after: string | null = null;
  const readNext = async (): Promise<boolean> => {
    const board = (await request<LeaderboardQuery>(LEADERBOARD, { variant: at.variant, speed: at.speed, bots: at.bots, after })).leaderboard;
    if (left) return false;
    body.insertAdjacentHTML("beforeend", board.edges.map((edge) => row(edge.node)).join(""));
    if (!body.children.length) body.innerHTML = `<tr><td colspan="4" class="quiet">${t("rating.boardEmpty")}</td></tr>`;
    after = board.pageInfo.endCursor ?? null;
    return board.pageInfo.hasNextPage;
  };
  readPages(page, readNext);
  return () => void (left = true);
}

/** The lobby's way to the leaderboards: the first game's, people's, at each speed. */
export function leaderboardLinks(variants: readonly Variant[]): HTMLElement {
  const first = variants[0]?.name ?? "classic";
  const links = SPEEDS.map((speed) => `<a href="${leaderboardLink(first, speed, false)}">${speedName(speed)}</a>`).join(" · ");
  return html(`<nav class="leaderboards" aria-label="${t("rating.leaderboards")}"><h2>${t("rating.leaderboards")}</h2><p>${links}</p></nav>`);
}
