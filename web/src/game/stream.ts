// A game's events as a page follows them: its history first, then live ones, gathered in
// short batches (a history comes event by event), resumed after the last one seen when the
// server ends the stream, until the game is over.

import { subscribe } from "../api";
import { EVENTS } from "../documents";
import { fromLegacy, type GameEvent, type UnknownEvent } from "../events";
import type { GameEventsSubscription } from "../generated/graphql";

export type AnyEvent = GameEvent | UnknownEvent;

export class EventStream {
  /** Every event seen, in order. */
  readonly events: AnyEvent[] = [];
  private batch: AnyEvent[] = [];
  private flushing: number | undefined;
  private lastSeq = 0;
  private stopped = false;
  private unsubscribe = (): void => {};

  /** `arrived`: a batch of events, `live` when it is news rather than the history read. */
  constructor(
    private readonly gameId: string,
    private readonly token: () => string | null,
    private readonly over: () => boolean,
    private readonly arrived: (batch: AnyEvent[], live: boolean) => void,
  ) {}

  follow(): void {
    this.unsubscribe = subscribe<GameEventsSubscription>(
      EVENTS,
      { id: this.gameId, after: this.lastSeq },
      this.token(),
      (data) => this.received(data),
      () => {
        // The server ended the stream (the game is over, or this page fell behind): resume
        // after the last event seen, unless the game is over.
        if (!this.stopped && !this.over()) window.setTimeout(() => this.follow(), 1000);
      },
    );
  }

  stop(): void {
    this.stopped = true;
    window.clearTimeout(this.flushing);
    this.unsubscribe();
  }

  private received(data: GameEventsSubscription): void {
    const event = fromLegacy(data.gameEvents);
    this.lastSeq = Math.max(this.lastSeq, event.seq);
    this.batch.push(event);
    window.clearTimeout(this.flushing);
    this.flushing = window.setTimeout(() => this.flush(), 60);
  }

  private flush(): void {
    const batch = this.batch;
    const live = this.events.length > 0 && batch.length < 3;
    this.batch = [];
    this.events.push(...batch);
    this.arrived(batch, live);
  }
}
