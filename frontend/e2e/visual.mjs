// Visual harness: builds the UI against the in-memory FakeBackend
// (e2e/mock.html), serves it, and saves screenshots of the main screens to
// artifacts/mock/ for a person to look at. Needs no Go backend.
//   node e2e/visual.mjs
//   VISUAL_ONLY=fallback node e2e/visual.mjs   (only the shots whose name matches the pattern)
import { createServer } from "node:http";
import { mkdirSync, mkdtempSync, readFileSync, existsSync, rmSync } from "node:fs";
import { constants } from "node:os";
import { dirname, extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { chromium } from "playwright-core";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// A build folder of its own each run, removed at exit: one shared by every
// run was emptied by a second run's build under the first one's server.
const cache = join(root, "node_modules", ".cache");
mkdirSync(cache, { recursive: true });
const out = mkdtempSync(join(cache, "mock-dist-"));
process.on("exit", () => rmSync(out, { recursive: true, force: true }));
// Interrupted (Ctrl+C, a CI job cancelled): a signal ends the process
// without "exit" unless it is handled, and each run's folder stayed behind.
// Exiting runs the handler above (and Playwright's, which ends the browser),
// with the code a shell gives a process the signal ended (130 for Ctrl+C).
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => process.exit(128 + constants.signals[signal]));
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

/** failed names the shots with a page error, a browser dialog or a dialog scrolling sideways. */
const failed = [];
const only = process.env.VISUAL_ONLY ? new RegExp(process.env.VISUAL_ONLY) : null;

async function shot(name, query, act, opts = {}) {
  if (only && !only.test(name)) return;
  const ctx = await browser.newContext({ viewport: opts.viewport ?? { width: 1200, height: 780 }, locale: opts.locale ?? "en-US", colorScheme: opts.dark ? "dark" : "light" });
  // One time of day in every run, so that two runs' pictures can be
  // compared pixel by pixel (the conversations' dates and times).
  await ctx.clock.setFixedTime(new Date("2026-11-27T10:30:00"));
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
  // What a person would see as broken without reading every picture: a
  // dialog that scrolls sideways (its labels cut off at the left).
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll("dialog[open]")].filter((d) => d.scrollWidth > d.clientWidth + 1).map((d) => d.getAttribute("aria-labelledby") ?? d.className),
  );
  if (wide.length) errors.push(`a dialog wider than its box, scrolling sideways: ${wide.join(", ")}`);
  await page.screenshot({ path: join(shots, `${name}.png`) });
  if (errors.length) {
    console.log(`${name}: ${errors.join("; ")}`);
    failed.push(name);
  }
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
for (const [lang, width, height] of [["en", 1280, 800], ["en", 800, 700], ["ko", 1280, 800], ["ko", 800, 700]]) {
  // Ollama stopped while a reply was written: one message says so, by the box.
  await shot(`turn-away-${lang}-${width}`, `scenario=away&lang=${lang}`, async (p) => {
    await p.fill("#composer-input", lang === "ko" ? "내 카페 쇼츠 영상 만들기" : "Make a YouTube Shorts video about my café");
    await p.press("#composer-input", "Enter");
    await p.waitForSelector("article[data-role='assistant'][data-status='error'] .away");
    await p.waitForSelector("#composer-held[data-problem='unreachable']");
  }, { locale: lang === "ko" ? "ko-KR" : "en-US", viewport: { width, height } });
}
await shot("onboarding-unreachable", "scenario=unreachable");
await shot("onboarding-model-missing", "scenario=model_missing&delay=300", async (p) => {
  await p.click("text=Pull model");
  await p.waitForSelector("[role=progressbar][aria-valuenow]");
});
await shot("settings", "scenario=chat", async (p) => {
  await p.click("button[aria-label='Settings']");
  await p.waitForSelector("dialog[open] #set-chat option", { state: "attached" });
});
for (const [lang, locale] of [["en", "en-US"], ["ko", "ko-KR"]]) {
  await shot(`settings-hosts-${lang}`, `scenario=chat&hosts=1&lang=${lang}`, async (p) => {
    await p.click(".topbar .tools button:last-child");
    await p.waitForSelector("dialog[open] .hosts li");
  }, { locale, viewport: { width: 1000, height: 700 } });
}
for (const [lang, locale] of [["en", "en-US"], ["ko", "ko-KR"]]) {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 800, height: 700 }]) {
    await shot(`folders-revoked-${lang}-${viewport.width}x${viewport.height}`, `scenario=chat&revoked=1&lang=${lang}`, async (p) => {
      await p.click(".topbar .tools button:last-child");
      await p.waitForSelector("dialog[open] [data-testid='revoked-imports']");
      await p.locator("[data-testid='revoked-imports']").scrollIntoViewIfNeeded();
    }, { locale, viewport });
  }
}
await shot("deleted-undo", "scenario=chat", async (p) => {
  await p.hover("nav li:first-child");
  await p.click("nav li:first-child button[title='Delete']");
  await p.waitForSelector(".toast");
});

const planOpen = async (p, text = "Make a YouTube Shorts video about my café") => {
  await p.fill("#composer-input", text);
  await p.press("#composer-input", "Enter");
  await p.waitForSelector("dialog.plan[open]");
};
await shot("plan-dialog", "scenario=complex", (p) => planOpen(p));
await shot("plan-dialog-ko", "scenario=complex&lang=ko", (p) => planOpen(p, "카페 홍보용 쇼츠 영상 만들기"), { locale: "ko-KR" });
await shot("plan-dialog-dark", "scenario=complex&theme=dark", (p) => planOpen(p), { dark: true });
await shot("plan-edited", "scenario=complex", async (p) => {
  await planOpen(p);
  await p.fill("dialog.plan li[data-step='1'] input.title", "Edit the video with subtitles");
  await p.click("dialog.plan button.add");
  await p.keyboard.type("Upload to YouTube");
  await p.focus("dialog.plan li[data-step='3'] .handle");
  await p.keyboard.press("ArrowUp");
  await p.fill("#plan-feedback", "Only free tools please");
});
await shot("plan-confirm-cancel", "scenario=complex", async (p) => {
  await planOpen(p);
  await p.keyboard.press("Escape");
  await p.waitForSelector("dialog.plan .confirm");
});
await shot("plan-empty-title", "scenario=complex", async (p) => {
  await planOpen(p);
  await p.fill("dialog.plan li[data-step='0'] input.title", "");
  await p.click("dialog.plan button.approve");
  await p.waitForSelector("dialog.plan .problems");
});
// The live trace beside the chat (1280×800) and over it (800×700, opened
// by its button), in English and Korean: its drawing's labels at their
// own size (VISUAL_ONLY=^trace-).
for (const [lang, locale, text] of [["en", "en-US", undefined], ["ko", "ko-KR", "카페 홍보용 쇼츠 영상 만들기"]]) {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 800, height: 700 }]) {
    await shot(`trace-running-${lang}-${viewport.width}`, `scenario=complex&step=400&delay=60&lang=${lang}`, async (p) => {
      await planOpen(p, text);
      await p.click("dialog.plan button.approve");
      if (!(await p.$("#trace-panel"))) await p.click("button.trace-toggle");
      await p.waitForSelector(".trace [data-active='1']");
      await p.waitForSelector("[data-testid=trace-steps] li:nth-child(4)");
    }, { viewport, locale });
  }
}
const guide = async (p, text) => {
  await planOpen(p, text);
  await p.click("dialog.plan button.approve");
  await p.waitForFunction(() => document.querySelectorAll("article[data-role='assistant'][data-status='complete'] .card").length >= 3);
};
await shot("guide", "scenario=complex&step=5&delay=0", (p) => guide(p));
await shot("guide-ko", "scenario=complex&step=5&delay=0&lang=ko", (p) => guide(p, "카페 쇼츠 영상"), { locale: "ko-KR" });
await shot("guide-dark", "scenario=complex&step=5&delay=0&theme=dark", (p) => guide(p), { dark: true });
await shot("guide-source", "scenario=complex&step=5&delay=0", async (p) => {
  await guide(p);
  await p.click(".md button.cite >> nth=0");
  await p.waitForSelector("dialog.source[open]");
});
await shot("guide-details", "scenario=complex&step=5&delay=0", async (p) => {
  await guide(p);
  await p.click("article[data-role='assistant']:last-of-type details summary");
  await p.evaluate(() => document.querySelector(".scroller").scrollTo(0, 1e6));
});
await shot("edit-last", "scenario=chat", async (p) => {
  await sendAndWait(p, "Explain RAG in one line");
  await p.click("button.edit-last");
});
await shot("knowledge", "scenario=chat", async (p) => {
  await p.click("text=Knowledge");
  await p.waitForSelector("table.docs");
});
await shot("knowledge-import", "scenario=chat&step=600", async (p) => {
  await p.click("text=Knowledge");
  await p.setInputFiles("#kb-file-input", { name: "연차 규정.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 fake") });
  await p.waitForSelector(".progress [role=progressbar][aria-valuenow]");
  await p.waitForTimeout(1300);
});
await shot("knowledge-search-ko", "scenario=chat&lang=ko", async (p) => {
  await p.click("text=지식 베이스");
  await p.click("#kb-tab-search");
  await p.fill("#kb-search", "휴가 규정");
  await p.press("#kb-search", "Enter");
  await p.waitForSelector(".hit");
}, { locale: "ko-KR" });
// A search hit opened in the reader: its whole document, scrolled to the
// hit, the query's words marked, each page and heading labelled.
for (const [lang, locale, view] of [["en", "en-US", "Knowledge"], ["ko", "ko-KR", "지식 베이스"]]) {
  await shot(`knowledge-reader-${lang}`, `scenario=chat&lang=${lang}`, async (p) => {
    await p.click(`nav >> text=${view}`);
    await p.click("#kb-tab-search");
    await p.fill("#kb-search", "휴가 규정");
    await p.press("#kb-search", "Enter");
    await p.click(".hit button.read-hit >> nth=0");
    await p.waitForSelector("dialog.reader[open] [data-testid=reader-passage] mark");
  }, { locale, viewport: { width: 1280, height: 800 } });
}
await shot("knowledge-catalog", "scenario=chat", async (p) => {
  await p.click("text=Knowledge");
  await p.click("#kb-tab-catalog");
  await p.waitForSelector(".catalog .tool");
});
await shot("memory", "scenario=chat", async (p) => {
  await p.click("text=Memory");
  await p.waitForSelector(".item");
});
await shot("memory-forget-ko", "scenario=chat&lang=ko", async (p) => {
  await p.click("nav >> text=기억");
  await p.click("button.forget-all");
  await p.waitForSelector(".confirm");
}, { locale: "ko-KR" });
// A slow download, so that the bar is seen moving (a fast one has finished by the shot).
await shot("settings-full", "scenario=chat&mode=desktop&delay=300", async (p) => {
  await p.click("button[aria-label='Settings']");
  await p.waitForSelector("dialog[open] #set-chat option", { state: "attached" });
  await p.check("#set-web");
  await p.fill("#set-pull", "bge-m3");
  await p.click("text=Pull");
  await p.waitForSelector("dialog[open] .pull [role=progressbar]");
});
// The model picker at 800 px: its words end in "…" where they do not fit.
for (const lang of ["en", "ko"]) {
  await shot(`picker-narrow-${lang}`, `scenario=chat&lang=${lang}`, (p) => p.waitForSelector("[data-testid='model-picker-face']"), { locale: lang === "ko" ? "ko-KR" : "en-US", viewport: { width: 800, height: 700 } });
}
// The fallback model: chosen in Settings, named in a reply's Details.
await shot("settings-fallback-ko", "scenario=chat&lang=ko&fallback=llama3.2:3b", async (p) => {
  await p.click("button[aria-label='설정']");
  await p.waitForSelector("dialog[open] #set-fallback option", { state: "attached" });
  await p.evaluate(() => document.querySelector("#set-fallback").scrollIntoView());
}, { locale: "ko-KR", viewport: { width: 800, height: 700 } });
await shot("details-fallback", "scenario=chat&fallback=llama3.2:3b", async (p) => {
  await sendAndWait(p, "Name my café");
  await p.click("article[data-role='assistant']:last-of-type details summary");
  await p.evaluate(() => document.querySelector(".scroller").scrollTo(0, 1e6));
}, { viewport: { width: 1280, height: 800 } });
await shot("details-fallback-ko", "scenario=chat&lang=ko&fallback=llama3.2:3b", async (p) => {
  await sendAndWait(p, "카페 이름 지어 줘");
  await p.click("article[data-role='assistant']:last-of-type details summary");
  await p.evaluate(() => document.querySelector(".scroller").scrollTo(0, 1e6));
}, { locale: "ko-KR", viewport: { width: 800, height: 700 } });
await shot("help", "scenario=chat", async (p) => {
  await p.keyboard.press("Control+/");
  await p.waitForSelector("dialog[open] kbd");
});

// Every modal dialog at 1280×800, in English and in Korean
// (VISUAL_ONLY=^dialog-): their shared frame (app.css) is compared before
// and after a change of it, and Korean labels, which run longer and wrap
// differently, are seen in every one of them.
for (const [lang, locale] of [["en", "en-US"], ["ko", "ko-KR"]]) {
  const view = { viewport: { width: 1280, height: 800 }, locale };
  const name = (dialog) => (lang === "en" ? `dialog-${dialog}` : `dialog-${dialog}-ko`);
  const q = (query) => `${query}&lang=${lang}`;
  await shot(name("settings"), q("scenario=chat"), async (p) => {
    await p.click(".topbar .tools button:last-child");
    await p.waitForSelector("dialog[open] #set-chat option", { state: "attached" });
  }, view);
  await shot(name("shortcuts"), q("scenario=chat"), async (p) => {
    await p.keyboard.press("Control+/");
    await p.waitForSelector("dialog[open] kbd");
  }, view);
  await shot(name("conversation-settings"), q("scenario=chat"), async (p) => {
    await p.click("nav li:first-child button.open");
    await p.click("[data-testid=conv-settings]");
    await p.waitForSelector("dialog[open] #conv-settings-title");
  }, view);
  await shot(name("palette"), q("scenario=chat"), async (p) => {
    await p.keyboard.press("Control+k");
    await p.waitForSelector("dialog.palette[open] li");
  }, view);
  await shot(name("link-warning"), q("scenario=chat"), async (p) => {
    await sendAndWait(p, lang === "en" ? "Where do I cut the clips?" : "클립은 어디서 잘라요?");
    await p.click("article[data-role='assistant'] .md a");
    await p.waitForSelector("dialog.link-warning[open]");
  }, view);
  await shot(name("tool-approval"), q("scenario=tool"), async (p) => {
    await p.fill("#composer-input", lang === "en" ? "Read my notes" : "내 메모를 읽어 줘");
    await p.press("#composer-input", "Enter");
    await p.waitForSelector("dialog.tool-approval[open]");
  }, view);
  await shot(name("plan"), q("scenario=complex"), (p) => planOpen(p, lang === "en" ? undefined : "카페 홍보용 쇼츠 영상 만들기"), view);
  await shot(name("source"), q("scenario=complex&step=5&delay=0"), async (p) => {
    await guide(p, lang === "en" ? undefined : "카페 쇼츠 영상");
    await p.click(".md button.cite >> nth=0");
    await p.waitForSelector("dialog.source[open]");
  }, view);
}

await browser.close();
server.close();
if (failed.length) {
  console.error(`problems in ${failed.length} shot(s): ${failed.join(", ")}`);
  process.exitCode = 1;
}
