"""Entry points: the command line (and, later, the GraphQL server)."""
