// The lobby's tournaments: those registering first, then those under way, then those over,
// each with its game, its round and its players, and a link to its page.

import { request } from "../api";
import { escape, html } from "../dom";
import { errorText } from "../errors";
import type { TournamentsQuery } from "../generated/graphql";
import { t } from "../i18n";
import { tournamentLink } from "../routes";
import { TOURNAMENTS } from "./documents";

type Listed = TournamentsQuery["tournaments"]["edges"][number]["node"];

const ORDER = ["REGISTERING", "CLOSED", "PLAYING", "FINISHED"];

function row(node: Listed, titles: ReadonlyMap<string, string>): string {
  const round = t("tournament.roundOf", { round: node.roundsPlayed.length, rounds: node.rounds });
  return `<tr data-tournament="${escape(node.id)}">
    <td><a href="${tournamentLink(node.id)}">${escape(node.name)}</a></td>
    <td>${escape(titles.get(node.variant) ?? node.variant)}</td>
    <td>${t(`tournamentStatus.${node.status}`)}</td>
    <td>${round}</td>
    <td>${node.entrants.length}</td>
  </tr>`;
}

/** Every tournament on the server (100 a page), read once as the lobby opens. */
async function everyTournament(): Promise<Listed[]> {
  const found: Listed[] = [];
  let after: string | null = null;
  do {
    const page: TournamentsQuery["tournaments"] = (await request<TournamentsQuery>(TOURNAMENTS, { after })).tournaments;
    found.push(...page.edges.map((edge) => edge.node));
    after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
  } while (after);
  return found;
}

export function tournamentList(titles: ReadonlyMap<string, string>): HTMLElement {
  const section = html(`<section class="tournaments" aria-labelledby="tournaments-title">
    <h2 id="tournaments-title">${t("tournament.list")}</h2>
    <p class="error" role="alert"></p>
    <div class="table-scroll" tabindex="0" role="region" aria-label="${t("tournament.list")}"><table><thead><tr>
      <th scope="col">${t("tournament.name")}</th><th scope="col">${t("lobby.game")}</th><th scope="col">${t("lobby.status")}</th>
      <th scope="col">${t("tournament.round")}</th><th scope="col">${t("lobby.players")}</th>
    </tr></thead><tbody id="tournaments"></tbody></table></div>
  </section>`);
  const rows = section.querySelector("tbody")!;
  everyTournament()
    .then((found) => {
      const sorted = found.sort((a, b) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status));
      rows.innerHTML = sorted.map((node) => row(node, titles)).join("") || `<tr><td colspan="5" class="quiet">${t("tournament.none")}</td></tr>`;
    })
    .catch((failure) => {
      section.querySelector(".error")!.textContent = errorText(failure);
    });
  return section;
}
