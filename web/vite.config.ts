import { createHash } from "node:crypto";
import { parse } from "@formatjs/icu-messageformat-parser";
import { Kind, parse as parseGraphQL, stripIgnoredCharacters } from "graphql";
import { defineConfig, runnerImport, type Plugin } from "vite";

// The message catalogues (src/locales/*.json) are parsed here, at build time, into the ICU
// syntax trees intl-messageformat formats, so that the browser is sent no parser (FormatJS's
// advice for production): a tenth of the client's JavaScript.
const precompiledMessages: Plugin = {
  name: "risiko-precompiled-messages",
  enforce: "pre",
  transform(code, id) {
    if (!/[\\/]src[\\/]locales[\\/][^\\/]+\.json$/.test(id)) return null;
    const messages = JSON.parse(code) as Record<string, string>;
    const trees = Object.fromEntries(Object.entries(messages).map(([key, message]) => [key, parse(message)]));
    return { code: JSON.stringify(trees), map: null }; // still JSON: Vite makes it a module
  },
};

// The documents the client sends (the /* GraphQL */ templates of src/) are sent without the
// spaces, line breaks and commas GraphQL ignores (graphql-js's stripIgnoredCharacters), each
// piece between two interpolated fragments on its own: a fifth less of the documents' weight.
const compactDocuments: Plugin = {
  name: "risiko-compact-documents",
  enforce: "pre",
  transform(code, id) {
    if (!/[\\/]src[\\/].+\.ts$/.test(id) || !code.includes("/* GraphQL */")) return null;
    const compact = code.replace(/\/\* GraphQL \*\/ `([^`]*)`/g, (_, body: string) => {
      const pieces = body.split(/(\$\{[^}]*\})/);
      return "`" + pieces.map((piece, i) => (i % 2 ? ` ${piece} ` : stripIgnoredCharacters(piece))).join("") + "`";
    });
    return { code: compact, map: null };
  },
};

// The documents the client sends, listed beside the build for a server that runs only those
// (documents.json, in GraphQL Code Generator's persisted-documents form: each document by its
// SHA-256; api/trusted.py reads it). They are the exports of src/documents.ts evaluated through
// the transforms above, so each is the very text the client sends, its fragments interpolated;
// an export that is not a GraphQL operation fails the build.
const documentManifest = (): Plugin => {
  let root = ".";
  return {
    name: "risiko-document-manifest",
    apply: "build",
    configResolved(config) {
      root = config.root;
    },
    async generateBundle() {
      const inline = { root, configFile: false as const, logLevel: "error" as const, plugins: [compactDocuments] };
      const { module } = await runnerImport<Record<string, unknown>>("/src/documents.ts", inline);
      const manifest: Record<string, string> = {};
      for (const [name, text] of Object.entries(module)) {
        if (typeof text !== "string" || !parseGraphQL(text).definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION)) {
          throw new Error(`src/documents.ts exports ${name}, which is not a GraphQL operation`);
        }
        manifest[createHash("sha256").update(text).digest("hex")] = text;
      }
      this.emitFile({ type: "asset", fileName: "documents.json", source: JSON.stringify(manifest, null, 1) + "\n" });
    },
  };
};

// Built into the api package (api/web_client), which the server serves and the Python
// package ships; nothing is loaded from anywhere else. Its addresses are relative to the page
// (base "./"), so that it works behind a path prefix (a proxy serving it at /risiko/) too.
export default defineConfig({
  base: "./",
  plugins: [precompiledMessages, compactDocuments, documentManifest()],
  resolve: {
    alias: [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: "@formatjs/icu-messageformat-parser/no-parser.js" }],
  },
  build: {
    outDir: "../api/web_client",
    emptyOutDir: true,
    assetsDir: "assets",
    sourcemap: false,
  },
  server: { proxy: { "/graphql": { target: "http://127.0.0.1:8000", ws: true } } },
});
