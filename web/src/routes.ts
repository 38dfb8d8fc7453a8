// The client's pages, by the address's hash: shareable links to the lobby, to a game, to a
// replay position (the board as a move left it), to a tournament, to a leaderboard
// (ratings/), the account's pages (account/), its challenges and the pool (play/). A page is a
// function that draws itself into the root and returns how to leave it.

export type Route =
  | { page: "lobby" }
  | { page: "game"; gameId: string }
  | { page: "replay"; gameId: string; version: number | null }
  | { page: "tournament"; tournamentId: string }
  | { page: "signup" }
  | { page: "login" }
  | { page: "myGames" }
  | { page: "myTokens" }
  | { page: "challenges" }
  | { page: "pool" }
  | { page: "profile"; name: string }
  | { page: "leaderboard"; variant: string; speed: Speed; bots: boolean };

export type Speed = "REAL_TIME" | "CORRESPONDENCE";
const SPEEDS: Record<string, Speed> = { "real-time": "REAL_TIME", correspondence: "CORRESPONDENCE" };

const ACCOUNT_PAGES: Record<string, Route> = {
  "#/signup": { page: "signup" },
  "#/login": { page: "login" },
  "#/me/games": { page: "myGames" },
  "#/me/tokens": { page: "myTokens" },
  "#/me/challenges": { page: "challenges" },
  "#/me/pool": { page: "pool" },
};

export function parseRoute(hash: string): Route {
  const replay = /^#\/game\/([^/]+)\/replay(?:\/(\d+))?$/.exec(hash);
  if (replay) return { page: "replay", gameId: decodeURIComponent(replay[1]), version: replay[2] ? Number(replay[2]) : null };
  const game = /^#\/game\/([^/]+)$/.exec(hash);
  if (game) return { page: "game", gameId: decodeURIComponent(game[1]) };
  const tournament = /^#\/tournament\/([^/]+)$/.exec(hash);
  if (tournament) return { page: "tournament", tournamentId: decodeURIComponent(tournament[1]) };
  const profile = /^#\/account\/([^/]+)$/.exec(hash);
  if (profile) return { page: "profile", name: decodeURIComponent(profile[1]) };
  const board = /^#\/leaderboard\/([^/]+)\/(real-time|correspondence)\/(people|bots)$/.exec(hash);
  if (board) return { page: "leaderboard", variant: decodeURIComponent(board[1]), speed: SPEEDS[board[2]], bots: board[3] === "bots" };
  if (Object.hasOwn(ACCOUNT_PAGES, hash)) return ACCOUNT_PAGES[hash];
  return { page: "lobby" };
}

export function gameLink(gameId: string): string {
  return `#/game/${encodeURIComponent(gameId)}`;
}

export function replayLink(gameId: string, version?: number): string {
  return `${gameLink(gameId)}/replay${version === undefined ? "" : `/${version}`}`;
}

export function profileLink(name: string): string {
  return `#/account/${encodeURIComponent(name)}`;
}

export function tournamentLink(tournamentId: string): string {
  return `#/tournament/${encodeURIComponent(tournamentId)}`;
}

export function leaderboardLink(variant: string, speed: Speed, bots: boolean): string {
  return `#/leaderboard/${encodeURIComponent(variant)}/${speed === "REAL_TIME" ? "real-time" : "correspondence"}/${bots ? "bots" : "people"}`;
}
