// An account's games as a table: the game, its status, the seat's result, and a link to it
// (the same table in "my games" and in a profile).

import { escape, html } from "../dom";
import { t, tOr } from "../i18n";
import { gameLink } from "../routes";
import { date, result } from "./common";

export interface GameRow {
  rank: number | null;
  won: boolean;
  node: { id: string; variant: string; status: string; createdAt: string };
}

export function gameTable(label: string, titles: ReadonlyMap<string, string>): { element: HTMLElement; add(rows: readonly GameRow[]): void } {
  const element = html(`<div class="table-scroll" tabindex="0" role="region" aria-label="${escape(label)}"><table class="account-games">
    <thead><tr><th scope="col">${t("lobby.game")}</th><th scope="col">${t("account.created")}</th><th scope="col">${t("lobby.status")}</th><th scope="col">${t("account.result")}</th><th scope="col"><span class="visually-hidden">${t("lobby.open")}</span></th></tr></thead>
    <tbody></tbody></table></div>`);
  const body = element.querySelector("tbody")!;
  const add = (rows: readonly GameRow[]): void => {
    for (const row of rows) {
      const { node } = row;
      const open = node.status === "FINISHED" ? t("account.review") : t("lobby.play");
      body.append(
        html(`<tr data-game="${escape(node.id)}">
          <td>${escape(titles.get(node.variant) ?? node.variant)}</td>
          <td>${date(node.createdAt)}</td>
          <td>${tOr(`gameStatus.${node.status}`, "")}</td>
          <td>${result(row)}</td>
          <td><a href="${gameLink(node.id)}">${open}</a></td>
        </tr>`),
      );
    }
    if (!body.children.length) body.append(html(`<tr><td colspan="5" class="quiet">${t("account.noGames")}</td></tr>`));
  };
  return { element, add };
}
