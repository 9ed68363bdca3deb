import { defineConfig } from "vite";

// Production build: one ES module with a fixed name, ../static/dist/game.js.
// Styles are imported with `?inline` and injected by JS, so no game.css is written.
// Paths are relative to this folder (Vite's root).
export default defineConfig({
  publicDir: false,
  build: {
    outDir: "../static/dist",
    emptyOutDir: true,
    target: "es2020",
    sourcemap: false,
    lib: {
      entry: { game: "src/main.ts" },
      formats: ["es"],
      fileName: (_format, name) => `${name}.js`,
    },
  },
});
