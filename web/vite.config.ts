import { defineConfig } from "vite";

// Built into the api package (api/web_client), which the server serves and the Python
// package ships; nothing is loaded from anywhere else.
export default defineConfig({
  build: {
    outDir: "../api/web_client",
    emptyOutDir: true,
    assetsDir: "assets",
    sourcemap: false,
  },
  server: { proxy: { "/graphql": { target: "http://127.0.0.1:8000", ws: true } } },
});
