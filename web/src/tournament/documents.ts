// The documents the tournament pages send (re-exported by ../documents.ts, so that the build
// lists them with every other for a server of trusted documents).

// A tournament as its page shows it: what it is, who is in, its standings, its rounds' tables.
// Each table's result is read from the export (its games' lines, by game and seat): asked as
// the field `result`, the tables of every round would cost more than the server's limit
// (each list of the document counts as its longest, 60 items, when the schema does not bound it).
const TOURNAMENT_FIELDS = /* GraphQL */ `
  fragment TournamentFields on Tournament {
    id
    name
    variant
    status
    rounds
    tableSize
    timeLimitMinutes
    registrationClosesAt
    admits
    commitment
    seed
    organiser {
      name
    }
    entrants {
      name
      bot
    }
    standings {
      place
      account {
        name
        bot
      }
      games
      points
      objectives
      opponentsPoints
      bestGame
      lot
    }
    roundsPlayed {
      number
      startedAt
      ended
      tables {
        gameId
        players {
          name
        }
      }
    }
    export(format: JSON)
  }
`;

export const TOURNAMENTS = /* GraphQL */ `
  query Tournaments($after: String) {
    tournaments(first: 100, after: $after) {
      edges {
        node {
          id
          name
          variant
          status
          rounds
          registrationClosesAt
          entrants {
            name
          }
          roundsPlayed {
            number
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

export const TOURNAMENT = /* GraphQL */ `
  query Tournament($id: ID!) {
    tournament(id: $id) {
      ...TournamentFields
    }
  }
  ${TOURNAMENT_FIELDS}
`;

export const TOURNAMENT_NEWS = /* GraphQL */ `
  subscription TournamentNews($id: ID!) {
    tournamentNews(id: $id) {
      kind
      round
      gameId
      tournament {
        ...TournamentFields
      }
    }
  }
  ${TOURNAMENT_FIELDS}
`;

// The player's and the organiser's commands answer alike: the tournament now, or why not.
const PAYLOAD_FIELDS = /* GraphQL */ `
  fragment TournamentPayloadFields on TournamentPayload {
    tournament {
      ...TournamentFields
    }
    userErrors {
      code
      message
    }
  }
  ${TOURNAMENT_FIELDS}
`;

export const REGISTER_FOR_TOURNAMENT = /* GraphQL */ `
  mutation RegisterForTournament($input: TournamentInput!) {
    registerForTournament(input: $input) {
      ...TournamentPayloadFields
    }
  }
  ${PAYLOAD_FIELDS}
`;

export const WITHDRAW_FROM_TOURNAMENT = /* GraphQL */ `
  mutation WithdrawFromTournament($input: TournamentInput!) {
    withdrawFromTournament(input: $input) {
      ...TournamentPayloadFields
    }
  }
  ${PAYLOAD_FIELDS}
`;

export const CLOSE_TOURNAMENT_REGISTRATION = /* GraphQL */ `
  mutation CloseTournamentRegistration($input: TournamentInput!) {
    closeTournamentRegistration(input: $input) {
      ...TournamentPayloadFields
    }
  }
  ${PAYLOAD_FIELDS}
`;

export const START_TOURNAMENT_ROUND = /* GraphQL */ `
  mutation StartTournamentRound($input: StartTournamentRoundInput!) {
    startTournamentRound(input: $input) {
      ...TournamentPayloadFields
    }
  }
  ${PAYLOAD_FIELDS}
`;
