// Apollo Client's persisted query link (createPersistedQueryLink, hashed queries by GET) and
// urql's persisted exchange against a live server:
//   node persisted.mjs PLAN_JSON
// PLAN_JSON: {"url": API, "operations": [{"client": "apollo" | "urql", "kind": "query" |
// "mutation", "document": "...", "variables": {...}}]}. Each operation runs on a fresh client
// (as a new browser would); prints, as one JSON line, for each: what every request carried
// (method, query or hash only) and its answer's status and error codes, then the data or the
// error codes the client ended with.
import { createHash } from "node:crypto";

import { ApolloClient, HttpLink, InMemoryCache, gql } from "@apollo/client";
import { createPersistedQueryLink } from "@apollo/client/link/persisted-queries";
import { Client, fetchExchange } from "@urql/core";
import { persistedExchange } from "@urql/exchange-persisted";

const plan = JSON.parse(process.argv[2]);
const sha256 = (text) => createHash("sha256").update(text).digest("hex");

function recordingFetch(requests) {
  return async (input, init = {}) => {
    const url = new URL(typeof input === "string" ? input : input.url);
    const method = (init.method || "GET").toUpperCase();
    const body = method === "POST" ? JSON.parse(init.body) : Object.fromEntries(url.searchParams);
    const answer = await fetch(input, init);
    const text = await answer.clone().text();
    let codes = [];
    try {
      codes = (JSON.parse(text).errors || []).map((error) => error.extensions?.code);
    } catch {}
    requests.push({ method, query: Boolean(body.query), hash: /sha256Hash/.test(JSON.stringify(body.extensions || "")), status: answer.status, codes });
    return answer;
  };
}

function codesOf(error) {
  const errors = error?.errors || error?.graphQLErrors || [];
  return errors.map((e) => e.extensions?.code || e.message);
}

async function withApollo(operation, requests) {
  const link = createPersistedQueryLink({ sha256, useGETForHashedQueries: true }).concat(
    new HttpLink({ uri: plan.url, fetch: recordingFetch(requests) }),
  );
  const client = new ApolloClient({ link, cache: new InMemoryCache() });
  const document = gql(operation.document);
  const variables = operation.variables || {};
  try {
    const result = operation.kind === "mutation"
      ? await client.mutate({ mutation: document, variables })
      : await client.query({ query: document, variables, fetchPolicy: "network-only" });
    return { data: result.data ?? null, codes: codesOf(result.error) };
  } catch (error) {
    return { data: null, codes: codesOf(error) };
  }
}

async function withUrql(operation, requests) {
  const client = new Client({
    url: plan.url,
    fetch: recordingFetch(requests),
    exchanges: [persistedExchange({ preferGetForPersistedQueries: true, enableForMutation: true }), fetchExchange],
  });
  const variables = operation.variables || {};
  const result = operation.kind === "mutation"
    ? await client.mutation(operation.document, variables).toPromise()
    : await client.query(operation.document, variables, { requestPolicy: "network-only" }).toPromise();
  return { data: result.data ?? null, codes: codesOf(result.error) };
}

const results = [];
for (const operation of plan.operations) {
  const requests = [];
  const run = operation.client === "apollo" ? withApollo : withUrql;
  results.push({ ...(await run(operation, requests)), requests });
}
console.log(JSON.stringify(results));
