import { defineConfig } from "vitest/config";
import type { Plugin } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";

// bundledPackages writes dist/bundled-packages.json: the npm packages whose
// code ends up in the bundle (Svelte's runtime too, though it is a dev
// dependency), so that `make package` ships their licences
// (scripts/pkgtool notices).
function bundledPackages(): Plugin {
  return {
    name: "wayfinder-bundled-packages",
    apply: "build",
    generateBundle(_, bundle) {
      const names = new Set<string>();
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== "chunk") continue;
        for (const id of Object.keys(chunk.modules)) {
          const at = id.lastIndexOf("/node_modules/");
          if (at < 0) continue;
          const parts = id.slice(at + "/node_modules/".length).split("/");
          names.add(parts.slice(0, parts[0]?.startsWith("@") ? 2 : 1).join("/"));
        }
      }
      this.emitFile({ type: "asset", fileName: "bundled-packages.json", source: JSON.stringify([...names].sort()) });
    },
  };
}

// base "./" because the Wails desktop build serves dist/ from an embedded
// filesystem, while `wayfinder serve` serves it at "/": relative asset URLs
// work in both.
export default defineConfig({
  base: "./",
  plugins: [svelte(), bundledPackages()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
  },
  server: { port: 34115, strictPort: true },
  test: {
    environment: "happy-dom",
    include: ["src/**/*.test.ts"],
    setupFiles: ["src/testing/waitfor.ts"],
    // A test may wait 5 s for each of several renders (waitfor.ts); under
    // the load of Go builds and browsers on two cores the first test of a
    // file, which also compiles its components, took 5.5 s of vitest's
    // default 5 s where alone it takes 0.4 s. A test that hangs still fails.
    testTimeout: 20000,
  },
  resolve: process.env.VITEST ? { conditions: ["browser"] } : undefined,
});
