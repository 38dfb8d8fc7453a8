// The graphql-http audit suite (GraphQL over HTTP) against a running server:
//   node audit.mjs http://127.0.0.1:8000/graphql
// prints one JSON line per audit: {id, name, status: "ok" | "warn" | "error", reason}.
import { serverAudits } from "graphql-http";

const url = process.argv[2];
for (const audit of serverAudits({ url, fetchFn: fetch })) {
  const result = await audit.fn();
  console.log(JSON.stringify({ id: audit.id, name: audit.name, status: result.status,
    reason: result.status === "ok" ? null : result.reason }));
}
