// The client's pages, by the address's hash: shareable links to the lobby, to a game, and to a
// replay position (the board as a move left it). A page is a function that draws itself into
// the root and returns how to leave it; account pages will be further routes here.

export type Route =
  | { page: "lobby" }
  | { page: "game"; gameId: string }
  | { page: "replay"; gameId: string; version: number | null };

export function parseRoute(hash: string): Route {
  const replay = /^#\/game\/([^/]+)\/replay(?:\/(\d+))?$/.exec(hash);
  if (replay) return { page: "replay", gameId: decodeURIComponent(replay[1]), version: replay[2] ? Number(replay[2]) : null };
  const game = /^#\/game\/([^/]+)$/.exec(hash);
  if (game) return { page: "game", gameId: decodeURIComponent(game[1]) };
  return { page: "lobby" };
}

export function gameLink(gameId: string): string {
  return `#/game/${encodeURIComponent(gameId)}`;
}

export function replayLink(gameId: string, version?: number): string {
  return `${gameLink(gameId)}/replay${version === undefined ? "" : `/${version}`}`;
}
