// "My games": the account's games, wherever it joined them (me.games, the same on every
// device), newest first, 50 at a time.

import { request } from "../api";
import { html, on } from "../dom";
import type { MyGamesQuery } from "../generated/graphql";
import { t } from "../i18n";
import { accountError, loggedIn, sessionEnded } from "./common";
import { MY_GAMES } from "./documents";
import { gameTable } from "./game-list";

export function showMyGames(root: HTMLElement, titles: ReadonlyMap<string, string>): () => void {
  const token = loggedIn(root);
  if (!token) return () => {};
  const page = html(`<main class="account" id="main"><h1>${t("account.myGames")}</h1><p class="quiet" id="count" role="status"></p><p class="error" role="alert"></p><button type="button" id="more" hidden>${t("account.more")}</button></main>`);
  const table = gameTable(t("account.myGames"), titles);
  page.querySelector("#count")!.after(table.element);
  root.replaceChildren(page);
  const more = page.querySelector<HTMLButtonElement>("#more")!;
  let after: string | null = null;
  let left = true;

  const next = async (): Promise<void> => {
    try {
      const data = await request<MyGamesQuery>(MY_GAMES, { after }, token);
      if (!left) return;
      const games = data.me!.games;
      table.add(games.edges);
      page.querySelector("#count")!.textContent = t("account.gameCount", { count: games.totalCount });
      after = games.pageInfo.endCursor;
      more.hidden = !games.pageInfo.hasNextPage;
    } catch (failure) {
      if (left && !sessionEnded(root, failure)) page.querySelector(".error")!.textContent = accountError(failure);
    }
  };
  on(more, "click", next);
  void next();
  return () => void (left = false);
}
