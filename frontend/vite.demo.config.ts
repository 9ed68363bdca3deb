import { defineConfig } from "vite";

// Local harness only (fake server in src/demo.ts). Output goes to frontend/demo-dist,
// never into ../static/dist.
export default defineConfig({
  publicDir: false,
  base: "./",
  build: {
    outDir: "demo-dist",
    emptyOutDir: true,
    rollupOptions: { input: "demo.html" },
  },
});
