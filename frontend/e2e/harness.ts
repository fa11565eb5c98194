// Shared setup for the browser specs: the fake Ollama process, the
// `wayfinder serve` process, and a headless Chromium via playwright-core.
import assert from "node:assert/strict";
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";

const e2eDir = process.env.WAYFINDER_E2E_DIR ?? resolve(".");
export const repoRoot = resolve(e2eDir, "..", "..");
export const artifacts = process.env.E2E_ARTIFACTS ?? join(repoRoot, "artifacts", "e2e");

/** The chat model the app is started with; the fake Ollama has it. */
export const MODEL = "llama3.2:3b";
/** The fake's default-scenario reply (backend/llm/ollamatest/cmd/fake-ollama). */
export const GREETING = "Hello! I am Wayfinder's test model.";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
];

interface Proc {
  child: ChildProcess;
  output: () => string;
}

/**
 * start runs a command and resolves with the first stdout/stderr match of
 * pattern; it rejects with the output so far when the process exits or the
 * time runs out, so a failing start says why.
 */
function start(cmd: string, args: string[], pattern: RegExp, timeoutMs: number, cwd = repoRoot): Promise<Proc & { match: RegExpMatchArray }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"], env: process.env });
    let out = "";
    let done = false;
    const finish = (err: Error | null, match?: RegExpMatchArray) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (err) {
        child.kill("SIGKILL");
        reject(err);
      } else resolvePromise({ child, output: () => out, match: match! });
    };
    const onData = (buf: Buffer) => {
      out += buf.toString();
      const m = out.match(pattern);
      if (m) finish(null, m);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("error", (e) => finish(new Error(`${cmd}: ${e.message}`)));
    child.on("exit", (code) => finish(new Error(`${cmd} ${args.join(" ")} exited (${code}) before it was ready:\n${out}`)));
    const timer = setTimeout(() => finish(new Error(`${cmd} not ready after ${timeoutMs} ms:\n${out}`)), timeoutMs);
  });
}

async function stop(p: Proc | undefined): Promise<void> {
  if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = new Promise<void>((r) => p.child.once("exit", () => r()));
  p.child.kill("SIGTERM");
  const timer = setTimeout(() => p.child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}

let fakeBin: string | undefined;

/** fakeOllamaBinary builds the fake once per run (faster than `go run` per spec). */
function fakeOllamaBinary(): string {
  if (process.env.FAKE_OLLAMA_BIN) return process.env.FAKE_OLLAMA_BIN;
  if (fakeBin) return fakeBin;
  const dir = mkdtempSync(join(tmpdir(), "wayfinder-fake-"));
  const bin = join(dir, "fake-ollama");
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  execFileSync("go", ["build", "-o", bin, "./backend/llm/ollamatest/cmd/fake-ollama"], { cwd: repoRoot, stdio: "inherit" });
  fakeBin = bin;
  return bin;
}

export interface FakeOllama {
  url: string;
  stop(): Promise<void>;
}

/** startFakeOllama starts the fake; addr "127.0.0.1:PORT" brings one back where an earlier one was. */
export async function startFakeOllama(scenario = "default", addr = "127.0.0.1:0"): Promise<FakeOllama> {
  const p = await start(fakeOllamaBinary(), ["--addr", addr, "--scenario", scenario], /FAKE_OLLAMA_URL=(http:\/\/\S+)/, 120_000);
  return { url: p.match[1]!, stop: () => stop(p) };
}

export interface App {
  /** url is the printed address, with its ?token=. */
  url: string;
  dataDir: string;
  output: () => string;
  stop(): Promise<void>;
}

export function wayfinderBinary(): string {
  const bin = process.env.WAYFINDER_BIN ?? join(repoRoot, "build", "bin", "wayfinder");
  if (!existsSync(bin)) {
    throw new Error(`${bin} does not exist: build it first (make build, or go build -o build/bin/wayfinder .), or set WAYFINDER_BIN`);
  }
  return bin;
}

/**
 * startApp starts `wayfinder serve` on a free port, or on addr (the same
 * address again: a restart of the backend with the window open), with its
 * data in dataDir (kept) or a folder of its own (deleted by stop).
 */
export async function startApp(opts: { ollamaHost: string; dataDir?: string; model?: string; addr?: string }): Promise<App> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "wayfinder-e2e-"));
  const p = await start(
    wayfinderBinary(),
    ["serve", "--addr", opts.addr ?? "127.0.0.1:0", "--data-dir", dataDir, "--ollama-host", opts.ollamaHost, "--model", opts.model ?? MODEL],
    /(http:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+\/\S*)/,
    60_000,
  );
  return {
    url: p.match[1]!,
    dataDir,
    output: p.output,
    stop: async () => {
      await stop(p);
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** World is what one spec file runs against: a fake Ollama, the app and a browser. */
export interface World {
  fake: FakeOllama;
  app: App;
  browser: Browser;
  /** api calls a service method of the app, as the window does (callAPI). */
  api(method: string, args: unknown[]): Promise<unknown>;
  /** settle waits until the fake has used every scripted reply (a turn's reflection included), up to 30 s for a busy machine. */
  settle(): Promise<void>;
}

/**
 * withWorld starts a fake Ollama with the scenario, `wayfinder serve` wired to
 * it and a browser before the file's tests, and stops them after. The fields
 * are set once the file's tests start. A page of the app opens with
 * openPage(w.browser, w.app.url, locale, viewport).
 */
export function withWorld(scenario = "default", opts: { model?: string } = {}): World {
  const w = {
    api: (method: string, args: unknown[]) => callAPI(w.app.url, method, args),
    settle: async () => {
      for (let i = 0; i < 600 && (await pending(w.fake)) > 0; i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(await pending(w.fake), 0, "scripted replies left over");
    },
  } as World;
  before(async () => {
    w.fake = await startFakeOllama(scenario);
    w.app = await startApp({ ollamaHost: w.fake.url, ...opts });
    w.browser = await launchBrowser();
  });
  after(async () => {
    await w.browser?.close();
    await w.app?.stop();
    await w.fake?.stop();
  });
  return w;
}

/** closedPortURL is an address where nothing listens, for "Ollama is down". */
export async function closedPortURL(): Promise<string> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
  const addr = srv.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  await new Promise<void>((r) => srv.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
}

/** The window sizes every screen is looked at in. */
export const SIZES = [
  { width: 1280, height: 800 },
  { width: 800, height: 700 },
] as const;

export async function openPage(browser: Browser, url: string, locale = "en-US", viewport: { width: number; height: number } = { width: 1200, height: 780 }): Promise<Page> {
  const ctx = await browser.newContext({ locale, viewport });
  const page = await ctx.newPage();
  page.on("pageerror", (e) => console.error("[page error]", e.message));
  await page.goto(url);
  await waitReady(page);
  return page;
}

/** callAPI calls a service method of the app at url (serve mode's /api), as the window does, and fails the test on an error. */
export async function callAPI(url: string, method: string, args: unknown[]): Promise<unknown> {
  const u = new URL(url);
  const res = await fetch(`${u.origin}/api/${method}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${u.searchParams.get("token")}`, "Content-Type": "application/json" },
    body: JSON.stringify(args),
  });
  const body = await res.text();
  assert.ok(res.ok, `${method}: ${res.status} ${body}`);
  return body ? JSON.parse(body) : null;
}

/** waitReady waits for the frontend's ready signal (not a fixed sleep). */
export async function waitReady(page: Page): Promise<void> {
  await page.waitForSelector("body[data-ready='1']", { timeout: 20_000 });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(artifacts, { recursive: true });
  const path = join(artifacts, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/**
 * screenshotSizes saves the page at 1280×800 and 800×700 as NAME-1280.png
 * and NAME-800.png, then puts the viewport back.
 */
export async function screenshotSizes(page: Page, name: string): Promise<void> {
  const before = page.viewportSize();
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await screenshot(page, `${name}-${size.width}`);
  }
  if (before) await page.setViewportSize(before);
}

/**
 * send types a message into the composer, presses Enter and waits until the window took it: the box is emptied once
 * the backend accepted the message, as its reply (streaming) is added. Until then the page still ends with the reply
 * before it in the same conversation, which lastReply would have read as this message's.
 */
export async function send(page: Page, text: string): Promise<void> {
  await page.fill("#composer-input", text);
  await page.press("#composer-input", "Enter");
  await page
    .waitForFunction(() => (document.querySelector("#composer-input") as HTMLTextAreaElement | null)?.value === "", undefined, { timeout: 30_000 })
    .catch(() => {
      throw new Error(`the message was not sent, the box still holds it: ${text}`);
    });
}

/** lastReply waits for the newest assistant message on the page to end and returns it. */
export async function lastReply(page: Page, timeout = 30_000): Promise<{ status: string; text: string }> {
  const sel = "article[data-role='assistant']";
  await page.waitForFunction(
    (s) => {
      const all = document.querySelectorAll(s);
      const last = all[all.length - 1];
      return !!last && last.getAttribute("data-status") !== "streaming";
    },
    sel,
    { timeout },
  );
  return page.evaluate((s) => {
    const all = document.querySelectorAll(s);
    const last = all[all.length - 1]!;
    return { status: last.getAttribute("data-status") ?? "", text: (last.querySelector(".bubble") as HTMLElement).innerText.trim() };
  }, sel);
}

/** A scripted fake-Ollama reply (backend/llm/ollamatest Reply over JSON). */
export interface FakeReply {
  text?: string;
  chunks?: string[];
  json?: unknown;
  tool_calls?: Array<{ name: string; args?: Record<string, unknown> }>;
  delay_ms?: number;
  chunk_delay_ms?: number;
}

async function control(fake: FakeOllama, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${fake.url}/__fake/${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`fake ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** answer is the model's last reply of a turn, then the reflection after it, which remembers nothing. */
export const answer = (text: string): FakeReply[] => [{ text }, { json: { memories: [] } }];

/** script appends replies the fake gives to the next /api/chat requests, in order. */
export async function script(fake: FakeOllama, replies: FakeReply[]): Promise<void> {
  await control(fake, "script", replies);
}

/**
 * fail makes the fake's next times requests to path fail with fault
 * (times -1: every one until resetFake), e.g. {kind: "hang"}: no answer until
 * the client gives up, as Ollama stuck on an embedding batch.
 */
export async function fail(fake: FakeOllama, path: string, times: number, fault: { kind: string; after?: number }): Promise<void> {
  await control(fake, "fail", { path, times, fault });
}

/** resetFake forgets the fake's script, faults and recorded requests. */
export async function resetFake(fake: FakeOllama): Promise<void> {
  await control(fake, "reset", {});
}

/** A model the fake has installed (backend/llm/ollamatest Model). */
export interface FakeModel {
  name: string;
  capabilities: string[];
  size?: number;
}

/** installModels gives the fake more models. */
export async function installModels(fake: FakeOllama, models: FakeModel[]): Promise<void> {
  await control(fake, "models", models);
}

/** pullDelay sets the fake's pause between download progress lines. */
export async function pullDelay(fake: FakeOllama, ms: number): Promise<void> {
  await control(fake, "pull_delay", { ms });
}

/** counts is how many requests the fake has answered (or is answering), by path. */
export async function counts(fake: FakeOllama): Promise<Record<string, number>> {
  return ((await control(fake, "counts")) ?? {}) as Record<string, number>;
}

/**
 * settled waits until the app has stopped asking the fake at path (by
 * default for embeddings: the built-in catalog's, a turn's query; or
 * /api/chat: a turn's reflection), so that a fault set next meets the
 * request a test means. afterReset: the fake was reset since, and no
 * request at all is quiet too. Stopped is no new request for 2 s: one
 * second (as it was) can pass between two of the catalog's batches on a
 * busy machine, and the fault set next would meet the catalog's request.
 */
export async function settled(fake: FakeOllama, path = "/api/embed", afterReset = false): Promise<void> {
  let last = -1;
  let since = Date.now();
  for (const until = Date.now() + 120_000; Date.now() < until; ) {
    const n = (await counts(fake))[path] ?? 0;
    if (n !== last) [last, since] = [n, Date.now()];
    // After resetFake its counts start from 0 again, and may stay there.
    else if ((n > 0 || afterReset) && Date.now() - since >= 2000) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the app kept calling ${path} for two minutes`);
}

/** pending is how many scripted replies are still unused. */
export async function pending(fake: FakeOllama): Promise<number> {
  const r = (await control(fake, "script", [])) as { pending: number };
  return r.pending;
}

/** watchDialogs records every alert/confirm/prompt a page opens (XSS canary). */
export function watchDialogs(page: Page): string[] {
  const seen: string[] = [];
  page.on("dialog", (d) => {
    seen.push(d.message());
    void d.dismiss();
  });
  return seen;
}

/** inertDOM lists anything that could run script in the app's DOM. */
export async function inertDOM(page: Page): Promise<{ handlers: string[]; scripts: number; jsLinks: number; iframes: number }> {
  return page.evaluate(() => {
    const all = [...document.querySelectorAll("body *")];
    return {
      handlers: all.filter((el) => el.getAttributeNames().some((a) => a.startsWith("on"))).map((el) => el.outerHTML.slice(0, 200)),
      scripts: [...document.querySelectorAll("script")].filter((s) => !s.src && s.textContent?.includes("alert")).length,
      jsLinks: [...document.querySelectorAll("a, [href], [src], [action], [formaction]")].filter((a) =>
        ["href", "src", "action", "formaction"].some((n) => /^\s*(javascript|vbscript|data:text)/i.test(a.getAttribute(n) ?? "")),
      ).length,
      iframes: document.querySelectorAll("iframe, object, embed, frame").length,
    };
  });
}

/**
 * longDoc writes a Markdown file of `sections` sections (about 3 chunks for
 * 4 of them) with needle added to section `at`, in a new temporary folder,
 * and returns its path: a document long enough for the reader to page.
 */
export function longDoc(name: string, sections: number, at: number, heading: (n: number) => string, para: (n: number) => string, needle: string): string {
  const lines: string[] = [];
  for (let n = 1; n <= sections; n++) lines.push(`## ${heading(n)}`, "", para(n) + (n === at ? ` ${needle}` : ""), "");
  const file = join(mkdtempSync(join(tmpdir(), "wf-doc-")), name);
  writeFileSync(file, lines.join("\n"));
  return file;
}

/** importFile imports path through the Knowledge screen's file input and waits until it is done. */
export async function importFile(page: Page, path: string): Promise<void> {
  const name = path.split("/").pop()!;
  await page.setInputFiles("#kb-file-input", path);
  await page.waitForFunction(
    (n) => [...document.querySelectorAll(".progress li.file")].some((li) => li.querySelector(".name")?.textContent === n && li.getAttribute("data-stage") === "done"),
    name,
    { timeout: 60_000 },
  );
}

/**
 * overlappingPlaces measures the page and heading labels (.place) of the reader in the dialog `dialog` ("source",
 * "reader") where it is, then a step at a time through a screen above and below, and puts the hit back where it was.
 * It returns each pair of labels whose boxes overlap on the way ("Section 59 | Section 60 at +26px"): none when a
 * label scrolls out before the next one reaches it. Labels are measured, not looked at, so a label drawn over
 * another one (sticky, or placed absolutely) is found whatever it says.
 */
export async function overlappingPlaces(page: Page, dialog: string): Promise<string[]> {
  return page.$eval(`dialog.${dialog} [data-testid=reader-body]`, async (body) => {
    const found: string[] = [];
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const measure = (at: string) => {
      const places = [...body.querySelectorAll<HTMLElement>(".place")].map((el) => ({ text: el.textContent ?? "", r: el.getBoundingClientRect() })).filter((p) => p.r.height > 0);
      for (let i = 0; i < places.length; i++) {
        for (let j = i + 1; j < places.length; j++) {
          const [a, b] = [places[i]!, places[j]!];
          // Half a pixel of rounding is not an overlap.
          if (a.r.top < b.r.bottom - 0.5 && b.r.top < a.r.bottom - 0.5 && a.r.left < b.r.right - 0.5 && b.r.left < a.r.right - 0.5) found.push(`${a.text} | ${b.text} at ${at}`);
        }
      }
    };
    measure("open");
    const start = body.scrollTop;
    // Where the hit is in the view, to put it back there after (text paged in above meanwhile moves it).
    const hitAt = () => (body.querySelector("[data-part=hit]")?.getBoundingClientRect().top ?? 0) - body.getBoundingClientRect().top;
    const was = hitAt();
    const screen = body.clientHeight;
    for (let d = -screen; d <= screen; d += 13) {
      body.scrollTop = start + d;
      await frame();
      measure(`${d >= 0 ? "+" : ""}${d}px`);
    }
    body.scrollTop += hitAt() - was;
    await frame();
    return [...new Set(found)];
  });
}

/**
 * HitPlace is where the reader's hit is when it opens, against the label of its section stuck over it: pixels from
 * the page's top, and how many lines the label takes (it wraps in a narrow window and in Korean).
 */
export interface HitPlace {
  label: string;
  labelLines: number;
  viewTop: number;
  viewBottom: number;
  labelTop: number;
  labelBottom: number;
  firstLineTop: number;
  firstLineBottom: number;
  /** markTop and markBottom are the hit's first marked word's (the search's words); 0 when none is marked. */
  markTop: number;
  markBottom: number;
}

/**
 * hitPlace measures the hit's first line (the box of its first letter) and the label of its section in the reader in
 * the dialog `dialog`, after two frames.
 */
export async function hitPlace(page: Page, dialog: string): Promise<HitPlace> {
  return page.$eval(`dialog.${dialog} [data-testid=reader-body]`, async (body) => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const hit = body.querySelector<HTMLElement>("[data-part=hit]")!;
    const label = hit.closest(".section")?.querySelector<HTMLElement>(":scope > .place");
    const walk = document.createTreeWalker(hit, NodeFilter.SHOW_TEXT);
    let text: Text | null = null;
    while (walk.nextNode()) if ((walk.currentNode.textContent ?? "").trim()) { text = walk.currentNode as Text; break; }
    const range = document.createRange();
    const at = text ? (text.textContent ?? "").search(/\S/) : 0;
    if (text) { range.setStart(text, at); range.setEnd(text, at + 1); }
    const line = range.getBoundingClientRect();
    const view = body.getBoundingClientRect();
    const l = label?.getBoundingClientRect();
    const labelRange = document.createRange();
    if (label) labelRange.selectNodeContents(label);
    const mark = hit.querySelector("mark")?.getBoundingClientRect();
    return {
      label: label?.textContent ?? "",
      labelLines: new Set([...labelRange.getClientRects()].map((r) => Math.round(r.top))).size,
      viewTop: view.top + body.clientTop,
      viewBottom: view.top + body.clientTop + body.clientHeight,
      labelTop: l?.top ?? 0,
      labelBottom: l?.bottom ?? 0,
      firstLineTop: line.top,
      firstLineBottom: line.bottom,
      markTop: mark?.top ?? 0,
      markBottom: mark?.bottom ?? 0,
    };
  });
}

/**
 * belowLabel says what is wrong with where the hit is against the label stuck over it ("" when nothing): the label
 * is not stuck at the view's top (nothing would be shown about it), the hit's first marked word is under the label
 * or out of the view, the hit's first line is under the label or below the view — unless the hit is so tall that its
 * first line and its first marked word do not fit in the view under the label together: then the word shows, and
 * the first line may be scrolled out above — or the label does not take the `lines` the test means it to.
 */
export function belowLabel(p: HitPlace, lines?: number): string {
  const mark = p.markBottom > 0 ? `, first mark ${p.markTop.toFixed(1)}–${p.markBottom.toFixed(1)}` : "";
  const at = `first line ${p.firstLineTop.toFixed(1)}–${p.firstLineBottom.toFixed(1)}${mark}, label ${p.labelTop.toFixed(1)}–${p.labelBottom.toFixed(1)}, view ${p.viewTop.toFixed(1)}–${p.viewBottom.toFixed(1)}`;
  if (lines !== undefined && p.labelLines !== lines) return `the label takes ${p.labelLines} lines, not ${lines}: ${at}`;
  if (Math.abs(p.labelTop - p.viewTop) > 0.5) return `the label is not stuck at the top, so nothing is measured: ${at}`;
  if (mark && p.markTop < p.labelBottom - 0.5) return `the hit's first marked word is under the label: ${at}`;
  if (mark && p.markBottom > p.viewBottom + 0.5) return `the hit's first marked word is below the view: ${at}`;
  const together = !mark || p.markBottom - p.firstLineTop <= p.viewBottom - p.labelBottom + 0.5;
  if (together && p.firstLineTop < p.labelBottom - 0.5) return `the hit's first line is under the label: ${at}`;
  if (p.firstLineBottom > p.viewBottom + 0.5) return `the hit's first line is below the view: ${at}`;
  return "";
}

/**
 * labelStrips scrolls the reader in the dialog `dialog` a pixel at a time through each place where one section's label
 * pushes out the one before it, near the hit, and puts the reader back where it was. It returns what it saw wrong:
 * "left" when the next label has reached the top and some of the one it pushed out still shows under the view's top,
 * "strip" when a label already partly out at the top still shows with a gap (text) between it and the label pushing
 * it — a strip of an old label that reads as nothing. None when a label goes out as the next one comes up under it.
 */
export async function labelStrips(page: Page, dialog: string): Promise<string[]> {
  return page.$eval(`dialog.${dialog} [data-testid=reader-body]`, async (body) => {
    const found: string[] = [];
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    // Where the hit is in the view, to put it back there after (text paged in above meanwhile moves it).
    const hitAt = () => (body.querySelector("[data-part=hit]")?.getBoundingClientRect().top ?? 0) - body.getBoundingClientRect().top;
    const was = hitAt();
    const labels = [...body.querySelectorAll<HTMLElement>(".section > .place")];
    const hitLabel = body.querySelector("[data-part=hit]")?.closest(".section")?.querySelector(":scope > .place");
    const k = labels.findIndex((l) => l === hitLabel);
    const short = (el: HTMLElement) => (el.textContent ?? "").slice(0, 12);
    for (let i = Math.max(0, k - 1); i <= k + 1 && i + 1 < labels.length; i++) {
      const [a, b] = [labels[i]!, labels[i + 1]!];
      const viewTop = () => body.getBoundingClientRect().top + body.clientTop;
      const h = a.getBoundingClientRect().height;
      for (let d = -Math.ceil(h + 40); d <= 10; d++) {
        // The next section's box (not sticky) d pixels above the view's top; measured each time, as text paged in
        // above moves it.
        body.scrollTop += b.parentElement!.getBoundingClientRect().top - viewTop() + d;
        await frame();
        const [ra, rb, top] = [a.getBoundingClientRect(), b.getBoundingClientRect(), viewTop()];
        const where = `${short(a)} | ${short(b)} at ${d}px`;
        if (rb.top <= top + 0.5 && ra.bottom > top + 0.5) found.push(`left ${(ra.bottom - top).toFixed(1)}px: ${where}`);
        if (ra.top < top - 0.5 && ra.bottom > top + 0.5 && rb.top > ra.bottom + 0.5) found.push(`strip ${(ra.bottom - top).toFixed(1)}px, ${(rb.top - ra.bottom).toFixed(1)}px above the next: ${where}`);
      }
    }
    body.scrollTop += hitAt() - was;
    await frame();
    return found;
  });
}

/**
 * cutLines scrolls nothing: it measures the reader in the dialog `dialog` where it is and returns each line of text
 * that the label stuck at the view's top cuts — its letters' box above the label's bottom edge and below it, by more
 * than half a pixel — or that no label is stuck there. Every text node's line boxes are measured (a range's client
 * rects, one a line), not one point, so a cut line is found wherever it starts.
 */
export async function cutLines(page: Page, dialog: string): Promise<string[]> {
  return page.$eval(`dialog.${dialog} [data-testid=reader-body]`, (body) => {
    const top = body.getBoundingClientRect().top + body.clientTop;
    const label = [...body.querySelectorAll(".section > .place")].map((el) => el.getBoundingClientRect()).find((r) => r.top <= top + 0.5 && r.bottom > top + 0.5);
    if (!label) return ["no label is stuck at the top"];
    const under = label.bottom;
    const found: string[] = [];
    const walk = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) {
      const node = walk.currentNode as Text;
      if (node.parentElement?.closest(".place")) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) {
        if (r.width > 0 && r.height > 0 && r.top < under - 0.5 && r.bottom > under + 0.5) {
          found.push(`"${node.data.trim().slice(0, 16)}…" ${r.top.toFixed(1)}–${r.bottom.toFixed(1)} across the label's edge at ${under.toFixed(1)}`);
        }
      }
    }
    return found;
  });
}

/** stillScroll waits until the reader in the dialog `dialog` has not scrolled for five looks 150 ms apart. */
export async function stillScroll(page: Page, dialog: string): Promise<void> {
  let last = -1;
  for (let same = 0; same < 5; ) {
    await page.waitForTimeout(150);
    const now = await page.$eval(`dialog.${dialog} [data-testid=reader-body]`, (b) => b.scrollTop);
    same = now === last ? same + 1 : 0;
    last = now;
  }
}
