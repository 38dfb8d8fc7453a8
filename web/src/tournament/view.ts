// A tournament's page drawn from what the API answers: what it is, its standings with every
// tie-break, and each round's tables with their players in seat order, each table's game to
// watch (the game's own page, as a spectator) and its result once counted (from the export).

import { escape } from "../dom";
import type { TournamentFieldsFragment } from "../generated/graphql";
import { currentLocale, t } from "../i18n";
import { gameLink, profileLink } from "../routes";

export type Tournament = TournamentFieldsFragment;
type Round = Tournament["roundsPlayed"][number];
type Table = Round["tables"][number];
type Bots = ReadonlySet<string>;

/** One player's line of a counted game, as the export gives it. */
interface Line {
  round: number;
  table: number;
  player: string;
  rank: number;
  objective: boolean;
  score: number;
}

/** Each counted game's lines by player, by round and table ("2/1": round 2's first table),
 * from the tournament's export. */
function results(tournament: Tournament): Map<string, Map<string, Line>> {
  const lines = (JSON.parse(tournament.export) as { games: Line[] }).games;
  const byTable = new Map<string, Map<string, Line>>();
  for (const line of lines) {
    const key = `${line.round}/${line.table}`;
    if (!byTable.has(key)) byTable.set(key, new Map());
    byTable.get(key)!.set(line.player, line);
  }
  return byTable;
}

export function when(iso: string): string {
  return new Intl.DateTimeFormat(currentLocale(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

function player(account: { name: string } | null, bots: Bots): string {
  if (!account) return "—";
  const bot = bots.has(account.name) ? ` <span class="badge">${t("account.bot")}</span>` : "";
  return `<a href="${profileLink(account.name)}">${escape(account.name)}</a>${bot}`;
}

/** What the tournament is: its game, where it is, its format, who it admits, its commitment
 * (and its seed, once over). */
export function facts(tournament: Tournament, titles: ReadonlyMap<string, string>): string {
  const fact = (term: string, value: string): string => `<div><dt>${term}</dt><dd>${value}</dd></div>`;
  return `<dl class="facts" data-status="${tournament.status}">
    ${fact(t("lobby.game"), escape(titles.get(tournament.variant) ?? tournament.variant))}
    ${fact(t("lobby.status"), t(`tournamentStatus.${tournament.status}`))}
    ${fact(t("tournament.round"), t("tournament.roundOf", { round: tournament.roundsPlayed.length, rounds: tournament.rounds }))}
    ${fact(t("tournament.tableSize"), t("tournament.players", { count: tournament.tableSize }))}
    ${fact(t("tournament.timeLimit"), t("tournament.minutes", { count: tournament.timeLimitMinutes }))}
    ${fact(t("tournament.closes"), escape(when(tournament.registrationClosesAt)))}
    ${fact(t("tournament.admits"), t(`admits.${tournament.admits}`))}
    ${fact(t("tournament.organiser"), tournament.organiser ? escape(tournament.organiser.name) : "—")}
    ${fact(t("tournament.entrants"), String(tournament.entrants.length))}
  </dl>
  <p class="seed quiet">${t("tournament.commitment")} <code>${escape(tournament.commitment)}</code></p>${revealed(tournament)}`;
}

/** The seed itself once the tournament is over, for anyone to check every round's tables. */
function revealed(tournament: Tournament): string {
  if (!tournament.seed) return "";
  return `<p class="seed revealed quiet">${t("tournament.seed")} <code>${escape(tournament.seed)}</code></p>`;
}

/** The standings, first place first, with every key that orders them. */
export function standings(tournament: Tournament): string {
  const bots = botsOf(tournament);
  const heads = ["place", "player", "games", "points", "objectives", "opponentsPoints", "bestGame", "lot"] as const;
  const head = heads.map((key) => `<th scope="col">${t(`standings.${key}`)}</th>`).join("");
  const rows = tournament.standings
    .map(
      (line) => `<tr data-player="${escape(line.account?.name ?? "")}">
      <td>${line.place}</td><th scope="row">${player(line.account, bots)}</th><td>${line.games}</td><td><strong>${line.points}</strong></td>
      <td>${line.objectives}</td><td>${line.opponentsPoints}</td><td>${line.bestGame}</td><td><code title="${escape(line.lot)}">${escape(line.lot.slice(0, 8))}</code></td>
    </tr>`,
    )
    .join("");
  const empty = `<tr><td colspan="${heads.length}" class="quiet">${t("tournament.noStandings")}</td></tr>`;
  return `<h2 id="standings-title">${t("tournament.standings")}</h2>
    <p class="quiet">${t("tournament.tieBreaks")}</p>
    <div class="table-scroll" tabindex="0" role="region" aria-labelledby="standings-title"><table class="standings-table">
    <thead><tr>${head}</tr></thead><tbody>${rows || empty}</tbody></table></div>`;
}

/** The bot accounts among the players (the standings say which). */
function botsOf(tournament: Tournament): Bots {
  return new Set(tournament.standings.filter((line) => line.account?.bot).map((line) => line.account!.name));
}

/** A table's players in seat order, each with its points and place once the game counted. */
function seated(table: Table, lines: ReadonlyMap<string, Line> | undefined, bots: Bots): string {
  const players = table.players.map((account) => {
    const line = lines?.get(account.name);
    const score = line ? ` <span class="quiet">${t("tournament.scored", { rank: line.rank, points: line.score, objective: line.objective })}</span>` : "";
    return `<li>${player(account, bots)}${score}</li>`;
  });
  return `<ol class="seat-order">${players.join("")}</ol>`;
}

function tableRow(table: Table, number: number, lines: ReadonlyMap<string, Line> | undefined, bots: Bots): string {
  const over = lines !== undefined;
  const status = over ? t("gameStatus.FINISHED") : t("gameStatus.ACTIVE");
  const open = over ? t("account.review") : t("lobby.watch");
  return `<tr data-game="${escape(table.gameId)}"${over ? ` class="over"` : ""}>
    <th scope="row">${t("tournament.table", { number })}</th>
    <td>${seated(table, lines, bots)}</td>
    <td class="status">${status}</td>
    <td><a class="watch" href="${gameLink(table.gameId)}" aria-label="${escape(t("tournament.openTable", { action: open, number }))}">${open}</a></td>
  </tr>`;
}

/** Every round seated, the latest first. */
export function rounds(tournament: Tournament): string {
  if (!tournament.roundsPlayed.length) return `<h2>${t("tournament.rounds")}</h2><p class="quiet">${t("tournament.noRounds")}</p>`;
  const counted = results(tournament);
  const bots = botsOf(tournament);
  const sections = [...tournament.roundsPlayed].reverse().map((round) => {
    const state = round.ended ? t("tournament.roundEnded") : t("tournament.roundPlaying");
    const id = `round-${round.number}`;
    return `<section class="round" data-round="${round.number}" aria-labelledby="${id}">
      <h3 id="${id}">${t("tournament.roundNumber", { number: round.number })} <span class="quiet">${state} · ${escape(when(round.startedAt))}</span></h3>
      <div class="table-scroll" tabindex="0" role="region" aria-labelledby="${id}"><table class="round-tables">
      <thead><tr><th scope="col">${t("tournament.tableHead")}</th><th scope="col">${t("tournament.seatOrder")}</th><th scope="col">${t("lobby.status")}</th><th scope="col"><span class="visually-hidden">${t("lobby.open")}</span></th></tr></thead>
      <tbody>${round.tables.map((table, i) => tableRow(table, i + 1, counted.get(`${round.number}/${i + 1}`), bots)).join("")}</tbody></table></div>
    </section>`;
  });
  return `<h2>${t("tournament.rounds")}</h2>${sections.join("")}`;
}
