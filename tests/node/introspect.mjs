// graphql-js's standard introspection query with every option on, as GraphQL Code Generator,
// Postman and Insomnia send it, and the schema graphql-js builds from the answer:
//   node introspect.mjs SERVER_URL
// prints one JSON line: {"status", "errors" (null when none), "cost" (what it was charged),
// "sdl" (the schema graphql-js printed; null on errors)}
import { buildClientSchema, getIntrospectionQuery, printSchema } from "graphql";

const [serverUrl] = process.argv.slice(2);
const query = getIntrospectionQuery({
  descriptions: true,
  specifiedByUrl: true,
  directiveIsRepeatable: true,
  schemaDescription: true,
  inputValueDeprecation: true,
  oneOf: true,
});
const response = await fetch(`${serverUrl}/graphql`, {
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/graphql-response+json" },
  body: JSON.stringify({ query, operationName: "IntrospectionQuery" }),
});
const answer = await response.json();
const out = {
  status: response.status,
  errors: answer.errors ?? null,
  cost: answer.extensions?.cost ?? null,
  sdl: answer.errors ? null : printSchema(buildClientSchema(answer.data)),
};
console.log(JSON.stringify(out));
