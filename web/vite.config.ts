import { defineConfig } from "vite";

// Built into the api package (api/web_client), which the server serves and the Python
// package ships; nothing is loaded from anywhere else. Its addresses are relative to the page
// (base "./"), so that it works behind a path prefix (a proxy serving it at /risiko/) too.
export default defineConfig({
  base: "./",
  build: {
    outDir: "../api/web_client",
    emptyOutDir: true,
    assetsDir: "assets",
    sourcemap: false,
  },
  server: { proxy: { "/graphql": { target: "http://127.0.0.1:8000", ws: true } } },
});
