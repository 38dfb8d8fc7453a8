// The account this browser is logged in as: its session's token (rks_…) and its name, kept in
// the browser's localStorage as the seats' tokens are (api.ts), so that a reload, another tab
// and every game's page act as the account until it logs out (docs/web-client.md says why
// there). The name is kept beside it only to draw the bar without asking the server first.

const STORED = "risiko:session";

export interface Session {
  token: string;
  name: string;
}

const listeners: (() => void)[] = [];

function read(): Session | null {
  try {
    const kept = JSON.parse(localStorage.getItem(STORED) ?? "null") as Partial<Session> | null;
    return kept?.token && kept.name ? { token: kept.token, name: kept.name } : null;
  } catch {
    return null; // storage refused, or something else kept there: logged out
  }
}

export const session = {
  get(): Session | null {
    return read();
  },
  token(): string | null {
    return read()?.token ?? null;
  },
  set(next: Session): void {
    localStorage.setItem(STORED, JSON.stringify(next));
    for (const listener of listeners) listener();
  },
  forget(): void {
    localStorage.removeItem(STORED);
    for (const listener of listeners) listener();
  },
  onChange(listener: () => void): void {
    listeners.push(listener);
  },
};
