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
const SKELETON = `<main class="tournament" id="main">
    <h1 id="title">…</h1><p class="error" role="alert"></p>
    <div id="facts"></div><div id="controls"></div><p class="error" id="refusal" role="alert"></p>
    <section id="standings" aria-labelledby="standings-title"></section>
    <section id="rounds"></section>
    <div id="announce" class="visually-hidden" aria-live="polite"></div>
  </main>`;

export function showTournament(root: HTMLElement, id: string, titles: ReadonlyMap<string, string>): () => void {
  const page = new TournamentPage(root, id, titles);
  return () => page.stop();
}

class TournamentPage {
  private readonly page = html(SKELETON);
  private left = false;
  private finished = false;
  private retry: number | undefined;
  private unsubscribe = (): void => {};
  private readonly stopReconnected: () => void;

  constructor(
    root: HTMLElement,
    private readonly id: string,
    private readonly titles: ReadonlyMap<string, string>,
  ) {
    root.replaceChildren(this.page);
    void this.load();
    this.follow();
    // A socket that comes back by itself resumes the stream: what it missed is read again.
    this.stopReconnected = onReconnected(null, () => void this.load());
  }

  stop(): void {
    this.left = true;
    this.unsubscribe();
    this.stopReconnected();
    window.clearTimeout(this.retry);
  }

  private part(selector: string): HTMLElement {
    return this.page.querySelector<HTMLElement>(selector)!;
  }

  private readonly draw = (tournament: Tournament): void => {
    if (this.left) return;
    this.finished = tournament.status === "FINISHED";
    document.title = `${tournament.name} · ${t("bar.title")}`;
    this.part("#title").textContent = tournament.name;
    // Redrawn whole: the link or button that had the focus gets it back.
    // (A command's button gives it to the first command now: Register becomes Withdraw.)
    const focused = document.activeElement?.closest("#main a, [data-command]");
    const again = focused instanceof HTMLAnchorElement ? `a[href="${focused.getAttribute("href")}"]` : focused ? ".controls button" : null;
    this.part("#facts").innerHTML = facts(tournament, this.titles);
    this.part("#controls").replaceChildren(controls(tournament, this.draw, this.part("#refusal")));
    this.part("#standings").innerHTML = standings(tournament);
    this.part("#rounds").innerHTML = rounds(tournament);
    if (again) this.page.querySelector<HTMLElement>(again)?.focus();
  };

  private async load(): Promise<void> {
    try {
      const found = (await request<TournamentQuery>(TOURNAMENT, { id: this.id })).tournament;
      if (this.left) return;
      if (found) return this.draw(found);
      this.finished = true; // nothing to follow
      this.part("#title").textContent = t("tournament.notFound");
    } catch (failure) {
      if (!this.left) this.part(".error").textContent = tournamentError(failure);
    }
  }

  /** The news, until the tournament finishes. A stream that ends before (the socket closed,
   * the server stopped it): the tournament is read again, for what the news would have told
   * meanwhile, and followed anew. */
  private follow(): void {
    const told = (data: TournamentNewsSubscription): void => {
      const news = data.tournamentNews;
      this.draw(news.tournament);
      this.part("#announce").textContent = t(`tournamentNews.${news.kind}`, { round: news.round ?? 0 });
    };
    this.unsubscribe = subscribe<TournamentNewsSubscription>(TOURNAMENT_NEWS, { id: this.id }, null, told, () => {
      if (this.left || this.finished) return;
      this.retry = window.setTimeout(() => void this.load().then(() => this.left || this.finished || this.follow()), RETRY_MS);
    });
  }
}
