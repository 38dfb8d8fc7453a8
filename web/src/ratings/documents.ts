// The documents the rating pages send (re-exported by ../documents.ts, so that the build lists
// them with every other for a server of trusted documents).

const RATING_FIGURES = /* GraphQL */ `
  fragment RatingFiguresFields on RatingFigures {
    rating
    provisional
  }
`;

export const PROFILE_RATINGS = /* GraphQL */ `
  query ProfileRatings($name: String!) {
    account(name: $name) {
      name
      ratings {
        variant
        speed
        rating
        games
        provisional
      }
    }
  }
`;

export const RATING_HISTORY = /* GraphQL */ `
  query RatingHistory($name: String!, $variant: String!, $speed: Speed!, $after: String) {
    account(name: $name) {
      name
      ratingHistory(variant: $variant, speed: $speed, first: 20, after: $after) {
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          node {
            gameId
            number
            at
            before {
              ...RatingFiguresFields
            }
            after {
              ...RatingFiguresFields
            }
          }
        }
      }
    }
  }
  ${RATING_FIGURES}
`;

export const LEADERBOARD = /* GraphQL */ `
  query Leaderboard($variant: String!, $speed: Speed!, $bots: Boolean!, $after: String) {
    leaderboard(variant: $variant, speed: $speed, bots: $bots, first: 50, after: $after) {
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          place
          account {
            name
          }
          rating {
            rating
            games
            provisional
          }
        }
      }
    }
  }
`;
