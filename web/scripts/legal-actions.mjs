// A plugin of GraphQL Code Generator (codegen.ts): the query of the viewer's legal actions,
// every family of the schema's LegalAction union with every field it has (but the deprecated),
// written at build time from the schema the client is built against. So a family a new game
// brings is asked for with nothing written here, and the query is one fixed text, listed among
// the client's trusted documents like any other (vite.config.ts).

/** @param {import("graphql").GraphQLSchema} schema */
export function plugin(schema) {
  const families = schema.getType("LegalAction");
  if (!families || !("getTypes" in families)) throw new Error("the schema has no LegalAction union");
  const fragments = families.getTypes().map((family) => {
    const fields = Object.values(family.getFields()).filter((field) => !field.deprecationReason);
    return `... on ${family.name} { ${fields.map((field) => field.name).join(" ")} }`;
  });
  return [
    "// Written by scripts/legal-actions.mjs (npm run codegen) from ../schema.graphql.",
    "/** The viewer's legal actions: every family, with all its fields. */",
    "export const LEGAL_ACTIONS = /* GraphQL */ `",
    "  query Legal($id: ID!) {",
    "    game(id: $id) {",
    "      version",
    "      legalActions {",
    "        __typename",
    ...fragments.map((fragment) => `        ${fragment}`),
    "      }",
    "    }",
    "  }",
    "`;",
    "",
  ].join("\n");
}
