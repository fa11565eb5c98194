// Runs the browser end-to-end specs (e2e/*.spec.ts) with node:test and
// playwright-core driving Debian's Chromium — no browser download needed.
// Node 20 cannot run TypeScript itself, so the specs are transpiled first
// (typescript.transpileModule, no type check: `npm run check` does that).
//
//   npm run e2e                 # every spec
//   npm run e2e -- chat xss     # specs whose file name contains a word
//
// Environment: WAYFINDER_BIN (default ../build/bin/wayfinder),
// FAKE_OLLAMA_BIN (default: built from ./backend/llm/ollamatest/cmd/fake-ollama),
// CHROMIUM_PATH (default /usr/bin/chromium), E2E_ARTIFACTS (screenshots,
// default ../artifacts/e2e).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const here = dirname(fileURLToPath(import.meta.url));
// Each run transpiles into a folder of its own, removed when it ends: one
// folder shared by every run was emptied and rewritten by a second run
// started meanwhile (two checkouts sharing node_modules, two CI tiers),
// under the first one's specs. It stays under node_modules, where the
// specs' own imports (playwright-core) are found.
const cache = join(here, "..", "node_modules", ".cache");
mkdirSync(cache, { recursive: true });
const out = mkdtempSync(join(cache, "wayfinder-e2e-"));
const removeOut = () => rmSync(out, { recursive: true, force: true });
process.on("exit", removeOut);

const filters = process.argv.slice(2);
const specs = [];
for (const name of readdirSync(here)) {
  if (!name.endsWith(".ts")) continue;
  const src = readFileSync(join(here, name), "utf8");
  // An inline source map (read with --enable-source-maps below) makes a
  // failure's stack name the spec's own file and line, e2e/NAME.spec.ts:LINE,
  // rather than a line of the transpiled copy, which is gone after the run.
  const js = ts.transpileModule(src, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false, inlineSourceMap: true, sourceRoot: here },
    fileName: name,
  }).outputText.replace(/(from\s+["']\.\/[^"']+)\.ts(["'])/g, "$1.mjs$2");
  const target = join(out, name.replace(/\.ts$/, ".mjs"));
  writeFileSync(target, js);
  if (name.endsWith(".spec.ts") && (filters.length === 0 || filters.some((f) => name.includes(f)))) {
    specs.push(target);
  }
}
if (specs.length === 0) {
  console.error(`no e2e spec matches ${filters.join(" ")}`);
  process.exit(2);
}

// One spec at a time: each starts its own app and browser, and the machine
// is small.
const child = spawn(process.execPath, ["--enable-source-maps", "--test", "--test-concurrency=1", "--test-reporter=spec", ...specs], {
  stdio: "inherit",
  env: { ...process.env, WAYFINDER_E2E_DIR: here },
});
// Interrupted (Ctrl+C, a CI job cancelled): the specs stop, and the exit
// handler above still removes the folder.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
