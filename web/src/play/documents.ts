// The documents the challenge and pool pages send (re-exported by ../documents.ts, so that the
// build lists them with every other for a server of trusted documents).

const CHALLENGE = /* GraphQL */ `
  fragment ChallengeFields on Challenge {
    id
    variant
    rated
    status
    expiresAt
    gameId
    clock {
      turnSeconds
      bankSeconds
    }
    challenger {
      name
    }
    challenged {
      name
    }
    accepted {
      name
    }
    declinedBy {
      name
    }
  }
`;

export const MY_CHALLENGES = /* GraphQL */ `
  query MyChallenges {
    me {
      name
      challenges(direction: BOTH, open: false) {
        ...ChallengeFields
      }
    }
  }
  ${CHALLENGE}
`;

export const CHALLENGE_NEWS = /* GraphQL */ `
  subscription ChallengeNews {
    challengeNews {
      challenge {
        ...ChallengeFields
      }
    }
  }
  ${CHALLENGE}
`;

export const CHALLENGE_ACCOUNTS = /* GraphQL */ `
  mutation ChallengeAccounts($input: ChallengeAccountsInput!) {
    challengeAccounts(input: $input) {
      challenge {
        ...ChallengeFields
      }
      userErrors {
        code
        message
      }
    }
  }
  ${CHALLENGE}
`;

export const ACCEPT_CHALLENGE = /* GraphQL */ `
  mutation AcceptChallenge($input: ChallengeInput!) {
    acceptChallenge(input: $input) {
      challenge {
        ...ChallengeFields
      }
      userErrors {
        code
        message
      }
    }
  }
  ${CHALLENGE}
`;

export const DECLINE_CHALLENGE = /* GraphQL */ `
  mutation DeclineChallenge($input: ChallengeInput!) {
    declineChallenge(input: $input) {
      challenge {
        ...ChallengeFields
      }
      userErrors {
        code
        message
      }
    }
  }
  ${CHALLENGE}
`;

export const CANCEL_CHALLENGE = /* GraphQL */ `
  mutation CancelChallenge($input: ChallengeInput!) {
    cancelChallenge(input: $input) {
      challenge {
        ...ChallengeFields
      }
      userErrors {
        code
        message
      }
    }
  }
  ${CHALLENGE}
`;

const SEEK = /* GraphQL */ `
  fragment SeekFields on Seek {
    id
    variant
    players
    speed
    rated
    state
    expiresAt
    gameId
    clock {
      turnSeconds
      bankSeconds
    }
  }
`;

export const MY_SEEKS = /* GraphQL */ `
  query MySeeks {
    me {
      name
      seeks {
        ...SeekFields
      }
    }
  }
  ${SEEK}
`;

export const JOIN_SEEK = /* GraphQL */ `
  mutation JoinSeek($input: JoinSeekInput!) {
    joinSeek(input: $input) {
      seek {
        ...SeekFields
      }
      userErrors {
        code
        message
      }
    }
  }
  ${SEEK}
`;

export const CANCEL_SEEK = /* GraphQL */ `
  mutation CancelSeek($input: CancelSeekInput!) {
    cancelSeek(input: $input) {
      seek {
        ...SeekFields
      }
      userErrors {
        code
        message
      }
    }
  }
  ${SEEK}
`;
