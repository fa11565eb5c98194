// Visual harness: builds the UI against the in-memory FakeBackend
// (e2e/mock.html), serves it, and saves screenshots of the main screens to
// artifacts/mock/ for a person to look at. Needs no Go backend.
//   node e2e/visual.mjs
import { createServer } from "node:http";
import { mkdirSync, readFileSync, existsSync } from "node:fs";
import { dirname, extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { chromium } from "playwright-core";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "node_modules", ".cache", "mock-dist");
const shots = process.env.MOCK_ARTIFACTS ?? join(root, "..", "artifacts", "mock");
mkdirSync(shots, { recursive: true });

await build({
  root,
  logLevel: "warn",
  build: { outDir: out, emptyOutDir: true, rollupOptions: { input: join(root, "e2e", "mock.html") } },
});

const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css" };
const server = createServer((req, res) => {
  const path = new URL(req.url, "http://x").pathname;
  const file = join(out, path === "/" ? "e2e/mock.html" : path);
  if (!file.startsWith(out) || !existsSync(file)) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "Content-Type": types[extname(file)] ?? "application/octet-stream" });
  res.end(readFileSync(file));
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}/e2e/mock.html`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic"],
});

async function shot(name, query, act, opts = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 780 }, locale: opts.locale ?? "en-US", colorScheme: opts.dark ? "dark" : "light" });
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("dialog", (d) => {
    errors.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  await page.goto(`${base}?${query}`);
  await page.waitForSelector("body[data-ready='1']");
  if (act) await act(page);
  await page.screenshot({ path: join(shots, `${name}.png`) });
  if (errors.length) console.log(`${name}: ${errors.join("; ")}`);
  console.log(`saved ${join(shots, name)}.png`);
  await ctx.close();
}

const sendAndWait = async (page, text) => {
  await page.fill("#composer-input", text);
  await page.press("#composer-input", "Enter");
  await page.waitForSelector("article[data-role='assistant'][data-status='complete']");
};

await shot("empty-en", "scenario=empty");
await shot("empty-ko", "scenario=empty&lang=ko", null, { locale: "ko-KR" });
await shot("chat-en", "scenario=chat", (p) => sendAndWait(p, "Make a YouTube Shorts video about my café"));
await shot("chat-dark", "scenario=chat&theme=dark", (p) => sendAndWait(p, "Make a YouTube Shorts video about my café"), { dark: true });
await shot("chat-ko", "scenario=chat&lang=ko", (p) => sendAndWait(p, "내 카페 쇼츠 영상 만들기"), { locale: "ko-KR" });
await shot("streaming", "scenario=chat&delay=200", async (p) => {
  await p.fill("#composer-input", "Explain");
  await p.press("#composer-input", "Enter");
  await p.waitForSelector("article[data-role='assistant'][data-status='streaming'] .md");
});
await shot("too-long", "scenario=chat", async (p) => {
  await p.evaluate(() => {
    const ta = document.querySelector("#composer-input");
    ta.value = "가".repeat(2 * 1024 * 1024);
    ta.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await p.waitForSelector("#composer-limit");
});
await shot("xss", "scenario=xss", (p) => sendAndWait(p, "<img src=x onerror=alert('user')>"));
await shot("turn-failed", "scenario=failed", async (p) => {
  await p.fill("#composer-input", "Make a YouTube Shorts video about my café");
  await p.press("#composer-input", "Enter");
  await p.waitForSelector("article[data-role='assistant'][data-status='error'] [role=alert]");
});
await shot("turn-failed-ko", "scenario=failed&lang=ko", async (p) => {
  await p.fill("#composer-input", "내 카페 쇼츠 영상 만들기");
  await p.press("#composer-input", "Enter");
  await p.waitForSelector("article[data-role='assistant'][data-status='error'] [role=alert]");
}, { locale: "ko-KR" });
await shot("onboarding-unreachable", "scenario=unreachable");
await shot("onboarding-model-missing", "scenario=model_missing&delay=300", async (p) => {
  await p.click("text=Pull model");
  await p.waitForSelector("[role=progressbar][aria-valuenow]");
});
await shot("settings", "scenario=chat", async (p) => {
  await p.click("button[aria-label='Settings']");
  await p.waitForSelector("dialog[open] #set-chat option", { state: "attached" });
});
await shot("deleted-undo", "scenario=chat", async (p) => {
  await p.hover("nav li:first-child");
  await p.click("nav li:first-child button[title='Delete']");
  await p.waitForSelector(".toast");
});

await browser.close();
server.close();
