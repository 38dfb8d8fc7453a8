// Every document the client sends, and nothing else: each export here is one, and the build
// lists them all, as the client holds them, for a server that runs only the documents it knows
// (vite.config.ts; trusted documents in docs/api.md). Typed by GraphQL Code Generator in
// src/generated; the events asked with the fields of each kind (events/fields.ts), the legal
// actions with every family of the schema (written by scripts/legal-actions.mjs).

import { EVENT_FIELDS } from "./events/fields";

export { LEGAL_ACTIONS } from "./generated/legal-actions";
export * from "./account/documents";
export * from "./tournament/documents";
export * from "./ratings/documents";
export * from "./play/documents";

export const VARIANTS = /* GraphQL */ `
  query Variants {
    variants {
      name
      title
      description
      minPlayers
      maxPlayers
      unitKinds
      markerKinds
      colours {
        id
        name
      }
      options {
        name
        default
        description
      }
      board {
        id
        name
        territories {
          id
          name
          kind
          region
        }
        regions {
          id
          name
          bonus
          territories
        }
        edges {
          a
          b
          kind
        }
        geometry {
          width
          height
          land
          spaces {
            id
            path
            anchor
          }
          lines {
            a
            b
            segments
          }
        }
      }
    }
  }
`;

export const GAMES = /* GraphQL */ `
  query Games {
    games(first: 50) {
      edges {
        node {
          id
          variant
          status
          version
          createdAt
          seedChosen
          players {
            seat
            name
            colour
            bot
            account {
              name
            }
          }
        }
      }
    }
  }
`;

export const LOBBY = /* GraphQL */ `
  subscription Lobby {
    lobby {
      type
      gameId
    }
  }
`;

export const CREATE = /* GraphQL */ `
  mutation CreateGame($input: CreateGameInput!) {
    createGame(input: $input) {
      game {
        id
      }
      userErrors {
        code
        message
      }
    }
  }
`;

export const JOIN = /* GraphQL */ `
  mutation JoinGame($input: JoinGameInput!) {
    joinGame(input: $input) {
      seat
      token
      clientSeedAccepted
      userErrors {
        code
        message
      }
    }
  }
`;

export const ADD_BOT = /* GraphQL */ `
  mutation AddBot($input: AddBotInput!) {
    addBot(input: $input) {
      seat
      userErrors {
        code
        message
      }
    }
  }
`;

export const START = /* GraphQL */ `
  mutation StartGame($input: GameInput!) {
    startGame(input: $input) {
      clientSeedAccepted
      userErrors {
        code
        message
      }
    }
  }
`;

export const LEAVE = /* GraphQL */ `
  mutation LeaveGame($input: GameInput!) {
    leaveGame(input: $input) {
      userErrors {
        code
        message
      }
    }
  }
`;

export const SUBMIT = /* GraphQL */ `
  mutation SubmitAction($input: SubmitActionInput!) {
    submitAction(input: $input) {
      version
      userErrors {
        code
        message
      }
    }
  }
`;

export const ODDS = /* GraphQL */ `
  query Odds($attackers: Int!, $defenders: Int!, $attackerDice: Int!, $stopAt: Int!) {
    battleOdds(attackers: $attackers, defenders: $defenders, attackerDice: $attackerDice, stopAt: $stopAt) {
      conquestProbability
      expectedAttackerLosses
      expectedDefenderLosses
    }
  }
`;

export const VOLLEY_ODDS = /* GraphQL */ `
  query VolleyOdds($attackers: Int!, $defenders: Int!, $flag: Boolean!, $attackerFirst: Boolean!) {
    volleyOdds(attackers: $attackers, defenders: $defenders, flag: $flag, attackerFirst: $attackerFirst) {
      conquestProbability
    }
  }
`;

/** A game's history, a page at a time (the largest the server gives). */
export const EVENT_PAGE = /* GraphQL */ `
  query EventPage($id: ID!, $after: Int!) {
    game(id: $id) {
      events(after: $after, first: 100) {
        hasMore
        events {
          ...EventFields
        }
      }
    }
  }
  ${EVENT_FIELDS}
`;

/** A game's events after `after`, then live ones. */
export const EVENTS = /* GraphQL */ `
  subscription GameEvents($id: ID!, $after: Int!) {
    gameEvents(gameId: $id, after: $after) {
      ...EventFields
    }
  }
  ${EVENT_FIELDS}
`;

export const GAME_STATE = /* GraphQL */ `
  query GameState($id: ID!) {
    game(id: $id) {
      id
      variant
      status
      version
      phase
      round
      currentPlayer
      seatToAct
      viewerSeat
      armiesToPlace
      piecesToPlace {
        kind
        count
      }
      neutralColours
      options {
        defenderDice
        roundLimit
        victoryPoints
      }
      state {
        __typename
        turnOrder
        ... on SpqrState {
          victoryPoints
          navalCombatSea
        }
        ... on PiuState {
          empires
          fortresses
          bannerHolders
          truceImposers
          truceTargets
          nextRinforzi
          attackSource
          attackTarget
          general
          marshal
          flagshipArmies
          setupStep
        }
        ... on FutuRisiKoState {
          productionPoints
          pointsLeft
          flagsLeft
          truces
          shields
          unitCosts
        }
      }
      secrets {
        name
        value
      }
      deckSize
      seedCommitment
      seed
      seedChosen
      rated
      speed
      expectedRanking {
        seat
        winChance
        rank
        rating {
          rating
          provisional
        }
      }
      randomness {
        commitment
        seedChosen
        derived
        startCommitment
        secret
        derivedSeed
        contributions {
          seat
          given
          value
          byServer
          atStart
        }
      }
      players {
        seat
        name
        colour
        territories
        armies
        cards
        eliminated
        resigned
        victoryPoints
        bot
        absences
      }
      territories {
        id
        owner
        units {
          kind
          count
          seat
          neutral
        }
        markers
      }
      clock {
        seat
        kind
        deadline
      }
      timeControl {
        turnSeconds
        bankSeconds
        answerSeconds
      }
      prompts {
        seat
        kind
      }
      hand {
        id
        symbol
        territory
      }
      objective {
        id
        text
        territories
      }
      outcome {
        winner
        reason
        ranking {
          rank
          seat
          points
        }
      }
    }
  }
`;
