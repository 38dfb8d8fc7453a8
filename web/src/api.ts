// The server's GraphQL API, as this client uses it: queries and mutations over fetch, and
// subscriptions over graphql-ws, beside the page: `graphql` relative to the page's own folder,
// so that the client works behind a path prefix (a proxy serving it at /risiko/) as at /.

import { createClient, type Client } from "graphql-ws";

export type Json = Record<string, unknown>;

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The API's address: beside the page, whatever its host, scheme or path prefix. */
export function endpoint(scheme: "http" | "ws" = "http"): string {
  const url = new URL("graphql", new URL(".", location.href));
  if (scheme === "ws") url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.href;
}

export async function request<T>(query: string, variables: Json = {}, token?: string | null): Promise<T> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(endpoint(), {
    method: "POST",
    headers,
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: { message: string; extensions?: { code?: string } }[] };
  if (body.errors?.length) {
    const first = body.errors[0];
    throw new ApiError(first.extensions?.code ?? "ERROR", first.message);
  }
  if (!body.data) throw new ApiError("ERROR", `the server answered ${response.status}`);
  return body.data;
}

/** A mutation's payload: its userErrors become an ApiError. */
export function checked<T extends { userErrors: { code: string; message: string }[] }>(payload: T): T {
  if (payload.userErrors.length) {
    const first = payload.userErrors[0];
    throw new ApiError(first.code, first.message);
  }
  return payload;
}

/** The close code of a socket whose credential the server refuses (revoked, expired, no
 * longer a seat's): opened again with the same credential, it would be refused again. */
const CREDENTIAL_REFUSED = 4403;

/** Whether a subscription's error is the server refusing its credential: the socket closed
 * with 4403, or the operation ended with UNAUTHENTICATED. */
export function credentialRefused(error: unknown): boolean {
  if (Array.isArray(error)) {
    return error.some((each) => (each as { extensions?: { code?: unknown } })?.extensions?.code === "UNAUTHENTICATED");
  }
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === CREDENTIAL_REFUSED;
}

let socket: Client | null = null;
let socketToken: string | null = null;

function client(token: string | null): Client {
  if (socket && socketToken === token) return socket;
  socket?.dispose();
  socket = createClient({
    url: endpoint("ws"),
    connectionParams: token ? { token } : {},
    retryAttempts: Infinity,
    // A network's fault is retried for ever; a refused credential never is (the page then
    // goes on without it, as a spectator).
    shouldRetry: (event) => !credentialRefused(event),
  });
  socketToken = token;
  return socket;
}

/** Follow a subscription; returns the function that stops it. `done` is told whether it ended
 * because the server refused the credential. */
export function subscribe<T>(
  query: string,
  variables: Json,
  token: string | null,
  next: (data: T) => void,
  done: (refused: boolean) => void = () => {},
): () => void {
  return client(token).subscribe<T>(
    { query, variables },
    {
      next: (result) => {
        if (result.data) next(result.data as T);
      },
      error: (error) => done(credentialRefused(error)),
      complete: () => done(false),
    },
  );
}

/** Call `listener` each time the socket connects again after it closed: a subscription is
 * resumed then, but what it would have told meanwhile is lost (a page whose stream cannot
 * resume where it stopped reads again). Returns the function that stops listening. */
export function onReconnected(token: string | null, listener: () => void): () => void {
  const socket = client(token);
  let closed = false;
  const stopClosed = socket.on("closed", () => void (closed = true));
  const stopConnected = socket.on("connected", () => {
    if (closed) listener();
    closed = false;
  });
  return () => {
    stopClosed();
    stopConnected();
  };
}

// A seat's token is kept in the browser for its game, so that a reload resumes the seat.
export const tokens = {
  get(gameId: string): string | null {
    return localStorage.getItem(`risiko:token:${gameId}`);
  },
  set(gameId: string, token: string): void {
    localStorage.setItem(`risiko:token:${gameId}`, token);
  },
  forget(gameId: string): void {
    localStorage.removeItem(`risiko:token:${gameId}`);
  },
};
