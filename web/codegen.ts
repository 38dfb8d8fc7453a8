import type { CodegenConfig } from "@graphql-codegen/cli";

// TypeScript types of the server's schema and of every document in src/: a schema change
// that breaks the client breaks its build.
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
  },
  silent: true,
};
export default config;
