// A game's events as a page follows them: its history first, read a page of 100 at a time,
// then live ones, gathered in short batches, resumed after the last one seen when the server
// ends the stream, until the game is over. `read` tells when the history is all in (what a
// replay waits for before it is whole).

import { ApiError, request, subscribe } from "../api";
import { EVENT_PAGE, EVENTS } from "../documents";
import type { GameEvent } from "../events";
import type { EventPageQuery, GameEventsSubscription } from "../generated/graphql";

export class EventStream {
  /** Every event seen, in order. */
  readonly events: GameEvent[] = [];
  private batch: GameEvent[] = [];
  private flushing: number | undefined;
  private lastSeq = 0;
  private stopped = false;
  private unsubscribe = (): void => {};
  private historyRead = (): void => {};
  /** Resolved once the history has been read to its last event (live ones may follow). */
  readonly read = new Promise<void>((resolve) => (this.historyRead = resolve));

  /** `arrived`: a batch of events, `live` when it is news rather than the history read;
   * `refused`: the server refused the token (the stream resumes with the token then given). */
  constructor(
    private readonly gameId: string,
    private readonly token: () => string | null,
    private readonly over: () => boolean,
    private readonly arrived: (batch: GameEvent[], live: boolean) => void,
    private readonly refused: () => void = () => {},
  ) {}

  /** The history after the last event seen, page by page, then the live events. */
  async follow(): Promise<void> {
    try {
      for (let more = true; more && !this.stopped; ) {
        const page = await request<EventPageQuery>(EVENT_PAGE, { id: this.gameId, after: this.lastSeq }, this.token());
        if (!page.game || this.stopped) return;
        const { events, hasMore } = page.game.events;
        this.emit(this.take(events), false);
        more = hasMore;
        if (!more) this.historyRead();
      }
    } catch (failure) {
      // The live stream below still brings what the pages did not.
      if (!(failure instanceof ApiError)) console.error(failure); // a fault of this page's, for its tests
    }
    if (!this.stopped) this.listen();
  }

  stop(): void {
    this.stopped = true;
    window.clearTimeout(this.flushing);
    this.unsubscribe();
  }

  private listen(): void {
    this.unsubscribe = subscribe<GameEventsSubscription>(
      EVENTS,
      { id: this.gameId, after: this.lastSeq },
      this.token(),
      (data) => this.received(data.gameEvents),
      (refused) => {
        // The server ended the stream (the game is over, or this page fell behind): resume
        // after the last event seen, unless the game is over: then it has sent everything.
        // A refused token is dropped first: resumed with it, it would be refused for ever.
        if (this.stopped) return;
        if (refused) this.refused();
        if (!this.over()) return void window.setTimeout(() => void this.follow(), 1000);
        this.flush();
        this.historyRead();
      },
    );
  }

  /** Events after the last one seen (a page and the stream may both bring one). */
  private take(events: GameEvent[]): GameEvent[] {
    const fresh = events.filter((event) => event.seq > this.lastSeq);
    this.lastSeq = Math.max(this.lastSeq, ...fresh.map((event) => event.seq));
    return fresh;
  }

  private received(event: GameEvent): void {
    this.batch.push(...this.take([event]));
    window.clearTimeout(this.flushing);
    this.flushing = window.setTimeout(() => this.flush(), 60);
  }

  private flush(): void {
    window.clearTimeout(this.flushing);
    const batch = this.batch;
    this.batch = [];
    // A few at a time is news; a burst is the page catching up after falling behind.
    this.emit(batch, this.events.length > 0 && batch.length < 3);
  }

  private emit(batch: GameEvent[], live: boolean): void {
    if (!batch.length) return;
    this.events.push(...batch);
    this.arrived(batch, live);
  }
}
