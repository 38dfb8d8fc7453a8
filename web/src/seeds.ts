// A seat's contribution to a game's randomness: a random client seed, sent when it joins and
// again when it starts the game, and kept in the browser to be found in the finished game's
// chain (fairness.ts). crypto.getRandomValues is there in every context, plain HTTP included.

/** `bytes` random bytes as hex (32 characters by default): a client seed, an id. */
export function randomHex(bytes = 16): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The contribution of this browser's seat in a game, as the server recorded it last (a fresh
// one for every attempt: a value sent in a refused request is no longer secret).
export const sentSeeds = {
  get(gameId: string): string | null {
    return localStorage.getItem(`risiko:seed:${gameId}`);
  },
  keep(gameId: string, seed: string): void {
    localStorage.setItem(`risiko:seed:${gameId}`, seed);
  },
};

