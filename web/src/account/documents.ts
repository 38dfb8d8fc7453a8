// The documents the account pages send (re-exported by ../documents.ts, so that the build
// lists them with every other for a server of trusted documents).

// What signing up and logging in answer alike: the session's token, or why there is none.
const SESSION_FIELDS = /* GraphQL */ `
  fragment SessionFields on SessionPayload {
    token
    account {
      name
    }
    userErrors {
      code
      message
    }
  }
`;

export const REGISTER = /* GraphQL */ `
  mutation Register($input: RegisterInput!) {
    register(input: $input) {
      ...SessionFields
    }
  }
  ${SESSION_FIELDS}
`;

export const LOG_IN = /* GraphQL */ `
  mutation LogIn($input: LogInInput!) {
    logIn(input: $input) {
      ...SessionFields
    }
  }
  ${SESSION_FIELDS}
`;

export const LOG_OUT = /* GraphQL */ `
  mutation LogOut($input: LogOutInput!) {
    logOut(input: $input) {
      ended
      userErrors {
        code
        message
      }
    }
  }
`;

export const MY_GAMES = /* GraphQL */ `
  query MyGames($after: String) {
    me {
      name
      games(first: 50, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          seat
          rank
          won
          node {
            id
            variant
            status
            createdAt
            players {
              seat
              name
            }
          }
        }
      }
    }
  }
`;

export const MY_TOKENS = /* GraphQL */ `
  query MyTokens {
    me {
      name
      tokens {
        id
        name
        scopes
        createdAt
        lastUsedAt
        expiresAt
      }
    }
  }
`;

export const CREATE_TOKEN = /* GraphQL */ `
  mutation CreateApiToken($input: CreateApiTokenInput!) {
    createApiToken(input: $input) {
      token
      userErrors {
        code
        message
      }
    }
  }
`;

export const REVOKE_TOKEN = /* GraphQL */ `
  mutation RevokeApiToken($input: RevokeApiTokenInput!) {
    revokeApiToken(input: $input) {
      userErrors {
        code
        message
      }
    }
  }
`;

export const PROFILE = /* GraphQL */ `
  query Profile($name: String!) {
    account(name: $name) {
      name
      bot
      createdAt
      results {
        played
        finished
        won
      }
      games(first: 50) {
        totalCount
        edges {
          seat
          rank
          won
          node {
            id
            variant
            status
            createdAt
          }
        }
      }
    }
  }
`;
