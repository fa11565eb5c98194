import { defineConfig } from "vitest/config";
import { svelte } from "@sveltejs/vite-plugin-svelte";

// base "./" because the Wails desktop build serves dist/ from an embedded
// filesystem, while `wayfinder serve` serves it at "/": relative asset URLs
// work in both.
export default defineConfig({
  base: "./",
  plugins: [svelte()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
  },
  server: { port: 34115, strictPort: true },
  test: {
    environment: "happy-dom",
    include: ["src/**/*.test.ts"],
  },
  resolve: process.env.VITEST ? { conditions: ["browser"] } : undefined,
});
