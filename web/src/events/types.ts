// The events as the client reads them: the GameEvent union's fields it asks for (fields.ts),
// typed from the schema by GraphQL Code Generator, each kind told apart by its `__typename`
// (a type of the GameEventDetail union: `DiceRolled`, a game's own `SpqrNeutralPlaced`).

import type { EventFieldsFragment } from "../generated/graphql";

/** An event: where it is in the game, whether it is the viewer's own, and what happened. */
export type GameEvent = EventFieldsFragment;

export type Detail = GameEvent["detail"];

/** The kinds of event the schema knows (the union's types). */
export type Kind = Detail["__typename"];

/** The fields the client reads of one kind of event. */
export type DetailOf<K extends Kind> = Extract<Detail, { __typename: K }>;

