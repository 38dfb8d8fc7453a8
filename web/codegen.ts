import type { CodegenConfig } from "@graphql-codegen/cli";

// TypeScript types of the server's schema and of every document in src/: a schema change
// that breaks the client breaks its build. And the legal actions' query, written from the
// schema (scripts/legal-actions.mjs).
const config: CodegenConfig = {
  schema: "../schema.graphql",
  documents: ["src/**/*.ts", "!src/generated/**"],
  generates: {
    "src/generated/graphql.ts": {
      plugins: ["typescript-operations"],
      config: {
        scalars: { JSON: "unknown" },
        avoidOptionals: true,
        enumsAsTypes: true,
        skipTypename: false,
      },
    },
    "src/generated/legal-actions.ts": { plugins: ["scripts/legal-actions.mjs"] },
  },
  silent: true,
};
export default config;
