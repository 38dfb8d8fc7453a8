"""The GraphQL schema: declarations that read like the schema, over the application service."""
