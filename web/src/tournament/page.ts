// A tournament's page: what it is, the account's commands (controls.ts), the standings and
// every round's tables (view.ts), kept live by the tournament's news (a round started, a game
// ended, the standings changed, the tournament finished) with no reload. The news tell only
// what changes while the page listens: when the socket closes, the page reads the tournament
// again and follows its news anew.

import { onReconnected, request, subscribe } from "../api";
import { html } from "../dom";
import type { TournamentNewsSubscription, TournamentQuery } from "../generated/graphql";
import { t } from "../i18n";
import { controls, tournamentError } from "./controls";
import { TOURNAMENT, TOURNAMENT_NEWS } from "./documents";
import { facts, rounds, standings, type Tournament } from "./view";

const RETRY_MS = 2000;

export function showTournament(root: HTMLElement, id: string, titles: ReadonlyMap<string, string>): () => void {
  const page = html(`<main class="tournament" id="main">
    <h1 id="title">…</h1><p class="error" role="alert"></p>
    <div id="facts"></div><div id="controls"></div><p class="error" id="refusal" role="alert"></p>
    <section id="standings" aria-labelledby="standings-title"></section>
    <section id="rounds"></section>
    <div id="announce" class="visually-hidden" aria-live="polite"></div>
  </main>`);
  root.replaceChildren(page);
  const part = (selector: string): HTMLElement => page.querySelector<HTMLElement>(selector)!;
  let left = false;
  let finished = false;
  let retry: number | undefined;

  const draw = (tournament: Tournament): void => {
    if (left) return;
    finished = tournament.status === "FINISHED";
    document.title = `${tournament.name} · ${t("bar.title")}`;
    part("#title").textContent = tournament.name;
    // Redrawn whole: the link or button that had the focus gets it back.
    // (A command's button gives it to the first command now: Register becomes Withdraw.)
    const focused = document.activeElement?.closest("#main a, [data-command]");
    const again = focused instanceof HTMLAnchorElement ? `a[href="${focused.getAttribute("href")}"]` : focused ? ".controls button" : null;
    part("#facts").innerHTML = facts(tournament, titles);
    part("#controls").replaceChildren(controls(tournament, draw, part("#refusal")));
    part("#standings").innerHTML = standings(tournament);
    part("#rounds").innerHTML = rounds(tournament);
    if (again) page.querySelector<HTMLElement>(again)?.focus();
  };

  const load = async (): Promise<void> => {
    try {
      const found = (await request<TournamentQuery>(TOURNAMENT, { id })).tournament;
      if (left) return;
      if (found) return draw(found);
      finished = true; // nothing to follow
      part("#title").textContent = t("tournament.notFound");
    } catch (failure) {
      if (!left) part(".error").textContent = tournamentError(failure);
    }
  };

  const told = (data: TournamentNewsSubscription): void => {
    const news = data.tournamentNews;
    draw(news.tournament);
    const what = t(`tournamentNews.${news.kind}`, { round: news.round ?? 0 });
    part("#announce").textContent = what;
  };
  // The stream ended before the tournament did (the socket closed, the server stopped it):
  // the tournament is read again, for what the news would have told meanwhile, and followed
  // anew. A socket that comes back by itself resumes the stream: read again then too.
  let stop = (): void => {};
  const follow = (): void => {
    stop = subscribe<TournamentNewsSubscription>(TOURNAMENT_NEWS, { id }, null, told, () => {
      if (left || finished) return;
      retry = window.setTimeout(() => void load().then(() => left || finished || follow()), RETRY_MS);
    });
  };
  void load();
  follow();
  const stopReconnected = onReconnected(null, () => void load());
  return () => {
    left = true;
    stop();
    stopReconnected();
    window.clearTimeout(retry);
  };
}

