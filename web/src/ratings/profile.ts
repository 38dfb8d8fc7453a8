// An account's ratings on its profile: each game and speed it has played rated games of (the
// number shown, "?" while provisional, its games, a link to that leaderboard), and the history
// of one of them (newest first, 20 games a page: the game, when it ended, before, after).

import { date } from "../account/common";
import { request } from "../api";
import { escape, html, on } from "../dom";
import { errorText } from "../errors";
import type { ProfileRatingsQuery, RatingHistoryQuery } from "../generated/graphql";
import { t } from "../i18n";
import { gameLink, leaderboardLink, type Speed } from "../routes";
import { change, readPages, ratingText, speedName } from "./common";
import { PROFILE_RATINGS, RATING_HISTORY } from "./documents";

type Rating = NonNullable<ProfileRatingsQuery["account"]>["ratings"][number];
type Change = NonNullable<RatingHistoryQuery["account"]>["ratingHistory"]["edges"][number]["node"];

/** A rating's row; with others beside it, a button that shows its history instead. */
function ratingRow(rating: Rating, game: string, index: number, others: boolean): string {
  const choose = others ? `<td><button type="button" data-history="${index}">${t("rating.history")}</button></td>` : "";
  return `<tr data-variant="${escape(rating.variant)}" data-speed="${rating.speed}">
    <th scope="row"><a href="${leaderboardLink(rating.variant, rating.speed, false)}">${escape(game)}</a></th>
    <td>${speedName(rating.speed)}</td>
    <td class="rating">${ratingText(rating)}</td>
    <td>${rating.games}</td>${choose}
  </tr>`;
}

function changeRow(node: Change): string {
  return `<tr data-game="${escape(node.gameId)}">
    <td><a href="${gameLink(node.gameId)}" aria-label="${escape(t("rating.gameNumber", { number: node.number }))}">${node.number}</a></td>
    <td>${date(node.at)}</td>
    <td>${ratingText(node.before)}</td>
    <td>${ratingText(node.after)}</td>
    <td>${change(node.before.rating, node.after.rating)}</td>
  </tr>`;
}

/** The history of one rating, a page at a time. */
function history(name: string, rating: Rating, game: string): HTMLElement {
  const label = t("rating.historyOf", { game, speed: speedName(rating.speed) });
  const box = html(`<div class="rating-history"><h3>${escape(label)}</h3><p class="error" role="alert"></p>
    <div class="table-scroll" tabindex="0" role="region" aria-label="${escape(label)}"><table>
    <thead><tr><th scope="col">${t("rating.number")}</th><th scope="col">${t("rating.ended")}</th><th scope="col">${t("rating.before")}</th><th scope="col">${t("rating.after")}</th><th scope="col">${t("rating.change")}</th></tr></thead>
    <tbody></tbody></table></div></div>`);
  const body = box.querySelector("tbody")!;
  let after: string | null = null;
  const readNext = async (): Promise<boolean> => {
    const variables = { name, variant: rating.variant, speed: rating.speed satisfies Speed, after };
    const found = (await request<RatingHistoryQuery>(RATING_HISTORY, variables)).account?.ratingHistory;
    if (!found) return false;
    body.insertAdjacentHTML("beforeend", found.edges.map((edge) => changeRow(edge.node)).join(""));
    after = found.pageInfo.endCursor ?? null;
    return found.pageInfo.hasNextPage;
  };
  readPages(box, readNext);
  return box;
}

/** The profile's section of ratings (nothing shown for an account never rated). */
export function ratingsSection(name: string, titles: ReadonlyMap<string, string>): HTMLElement {
  const section = html(`<section class="ratings" aria-labelledby="ratings-title"><h2 id="ratings-title">${t("rating.ratings")}</h2><p class="error" role="alert"></p></section>`);
  request<ProfileRatingsQuery>(PROFILE_RATINGS, { name })
    .then((data) => {
      const ratings = data.account?.ratings ?? [];
      if (!ratings.length) return void section.append(html(`<p class="quiet">${t("rating.none")}</p>`));
      const game = (rating: Rating): string => titles.get(rating.variant) ?? rating.variant;
      const others = ratings.length > 1;
      const table = html(`<div class="table-scroll" tabindex="0" role="region" aria-label="${t("rating.ratings")}"><table class="ratings-table">
        <thead><tr><th scope="col">${t("lobby.game")}</th><th scope="col">${t("rating.speed")}</th><th scope="col">${t("rating.rating")}</th><th scope="col">${t("rating.games")}</th>${others ? `<th scope="col"><span class="visually-hidden">${t("rating.history")}</span></th>` : ""}</tr></thead>
        <tbody>${ratings.map((r, i) => ratingRow(r, game(r), i, others)).join("")}</tbody></table></div>`);
      const shown = html(`<div class="history-box"></div>`);
      const show = (index: number): void => shown.replaceChildren(history(name, ratings[index], game(ratings[index])));
      for (const button of table.querySelectorAll<HTMLButtonElement>("button[data-history]")) on(button, "click", () => show(Number(button.dataset.history)));
      section.append(table, shown);
      show(0);
    })
    .catch((failure) => void (section.querySelector(".error")!.textContent = errorText(failure)));
  return section;
}
