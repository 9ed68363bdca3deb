import { defineConfig } from "vite";

// Production build: one self-contained ES module per page with a fixed name, ../static/dist/<page>.js.
// `vite build` makes game.js (the game screen and its notices: the game and demo pages);
// `vite build --mode site` makes site.js (course previews, the price chart and notices on the pages with no
// game screen), `--mode lobby` lobby.js (the live lobby lists) and `--mode howto` howto.js (the
// how-to-play page's example boards), `--mode editor` editor.js (the course editor), `--mode review`
// review.js (a course's review page and its comments). One build per page,
// not one build with several entries: Rollup would move the shared board renderer into a chunk of its
// own, and game.js must stay one file.
// Styles are imported with `?inline` and injected by JS (game.js), so no game.css is written.
// Paths are relative to this folder (Vite's root).
const PAGES: Record<string, string> = {
  game: "src/main.ts", site: "src/site.ts", lobby: "src/lobby.ts", howto: "src/howto.ts", editor: "src/editor.ts",
  review: "src/review.ts",
};

export default defineConfig(({ mode }) => {
  const page = mode in PAGES ? mode : "game";
  return {
    publicDir: false,
    build: {
      outDir: "../static/dist",
      emptyOutDir: page === "game", // the first of the builds
      target: "es2020",
      sourcemap: false,
      lib: {
        entry: { [page]: PAGES[page] },
        formats: ["es"],
        fileName: (_format: string, name: string) => `${name}.js`,
      },
    },
  };
});
