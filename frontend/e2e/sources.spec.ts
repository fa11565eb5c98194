// Sources are what a reply cites (issue 17.3), against `wayfinder serve`
// with the real AI-tool catalog: a guide whose scout searches find many
// tools lists only the passages it cites, renumbered [1], [2], … in order
// of first use; each recommendation card's chips open a passage about its
// own tool; what was found but not cited stays under Details; a reload
// shows the same text; the export lists the sources once.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { openPage, screenshot, script, send, withWorld } from "./harness.ts";

const w = withWorld();

const LAST = "article[data-role='assistant']:last-of-type";

const review = (tool: string, url: string, pricing: string) => ({
  json: { sufficient: true, missing: "", tool, why: `${tool} fits this step`, url, pricing, alternatives: [] },
});
const more = { json: { sufficient: false, missing: "the tool's own entry in the catalog", tool: "", why: "", url: "", pricing: "", alternatives: [] } };

/** openSource clicks a citation and returns the opened passage's title and text. */
async function openSource(page: Page, selector: string): Promise<{ title: string; snippet: string }> {
  await page.click(selector);
  await page.waitForFunction(() => document.querySelector("dialog.source[open] #source-title")?.textContent?.trim());
  return page.evaluate(() => ({
    title: document.querySelector("#source-title")!.textContent!.trim(),
    snippet: document.querySelector("dialog.source [data-part=hit]")?.textContent ?? "",
  }));
}

async function closeSource(page: Page): Promise<void> {
  await page.click("dialog.source button.primary");
  await page.waitForSelector("dialog.source[open]", { state: "detached" });
}

async function citeNumbers(page: Page): Promise<string[]> {
  return page.$$eval(`${LAST} .md button.cite`, (els) => els.map((e) => e.textContent ?? ""));
}

test("a guide lists only what it cites; cards point at their own tool; export once", async () => {
  await script(w.fake, [
    { json: { route: "complex", needs_documents: false, refers_to_previous: false, out_of_scope: false, reason: "a task" } },
    {
      json: {
        sub_tasks: [
          { id: "s1", title: "Write the script", detail: "A 30-second script" },
          { id: "s2", title: "Edit the video", detail: "Vertical clips with subtitles" },
          { id: "s3", title: "Make a thumbnail", detail: "An eye-catching cover" },
        ],
      },
    },
  ]);
  const page = await openPage(w.browser, w.app.url);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.click(".views button >> nth=0");
  await page.waitForSelector("#kb-title");
  await page.click("button.new");
  await send(page, "Help me make a YouTube Shorts video to promote my café");
  await page.waitForSelector("dialog.plan[open]");

  // Each search finds the tool by name and, by meaning, several others.
  // (Names alone: while the catalog is still being embedded in the
  // background, an entry without a vector can rank below ten others.)
  // Per sub-task: Wayfinder's own search with the step's words, a review
  // that asks for more, the scout's search, the review that recommends.
  await script(w.fake, [
    more,
    { tool_calls: [{ name: "search_catalog", args: { query: "ChatGPT", top_k: 10 } }] },
    review("ChatGPT", "https://chatgpt.com", "free, Plus $20/month"),
    more,
    { tool_calls: [{ name: "search_catalog", args: { query: "Vrew", top_k: 10 } }] },
    review("Vrew", "https://vrew.ai", "free plan"),
    more,
    { tool_calls: [{ name: "search_catalog", args: { query: "Canva", top_k: 10 } }] },
    review("Canva", "https://www.canva.com", "free"),
    // The writer cites out of order, repeats one, and invents [42].
    { chunks: ["# Café Shorts guide\n\n", "1. Edit in Vrew [", "2] and again [2]\n", "2. Script with ChatGPT [1]\n", "3. A made-up source [42]\n"], chunk_delay_ms: 40 },
    { json: { memories: [] } },
  ]);
  await page.click("dialog.plan button.approve");
  await page.waitForFunction(
    (sel) => document.querySelector(sel)?.getAttribute("data-status") === "complete" && document.querySelectorAll(`${sel} .card`).length === 3,
    LAST,
    { timeout: 60_000 },
  );

  await screenshot(page, "sources-1-guide");
  // The markers are dense, in order of first use, and the list under the
  // guide names only what they point at plus what the cards show.
  assert.deepEqual(await citeNumbers(page), ["[1]", "[1]", "[2]"]);
  const listed = await page.$$eval(`${LAST} .cited li`, (els) => els.map((e) => e.textContent?.trim() ?? ""));
  assert.equal(listed.length, 3, `sources: ${listed.join(" | ")}`);
  assert.match(listed[0]!, /^\[1\] Vrew/);
  assert.match(listed[1]!, /^\[2\] ChatGPT/);
  assert.match(listed[2]!, /^\[3\] Canva/);
  assert.doesNotMatch((await page.textContent(`${LAST} .md`)) ?? "", /\[42\]|Sources/);

  // The first citation opens Vrew's passage.
  assert.match((await openSource(page, `${LAST} .md button.cite >> nth=0`)).title, /^\[1\] Vrew/);
  await closeSource(page);

  // Every card's chips open passages about that card's tool.
  for (const tool of ["ChatGPT", "Vrew", "Canva"]) {
    const card = `${LAST} .card:has(.tool:text-is("${tool}"))`;
    const chips = await page.$$(`${card} button.cite`);
    assert.ok(chips.length > 0, `the ${tool} card has a chip`);
    for (let i = 0; i < chips.length; i++) {
      const { title, snippet } = await openSource(page, `${card} button.cite >> nth=${i}`);
      assert.ok(title.includes(tool) || snippet.includes(tool), `the ${tool} card's chip ${i + 1} opened ${title}`);
      if (tool === "ChatGPT" && i === 0) await screenshot(page, "sources-2-card-chip");
      await closeSource(page);
    }
  }

  // What the scouts found but nothing cites is under Details, not a source.
  await page.click(`${LAST} details summary`);
  const retrieved = await page.$$eval(`${LAST} details .retrieved li`, (els) => els.map((e) => e.textContent ?? ""));
  assert.ok(retrieved.length > 0, "the uncited passages are under Details");
  for (const r of retrieved) assert.ok(!listed.some((l) => l.includes(r.split(" · ")[0]!)), `${r} is both a source and uncited`);
  await page.$eval(`${LAST} details`, (el) => el.scrollIntoView());
  await screenshot(page, "sources-3-details");

  // A reload shows the text the person watched, with the same numbers.
  const before = await page.textContent(`${LAST} .md`);
  await page.reload();
  await page.waitForSelector(`${LAST}[data-status='complete'] .card`);
  assert.equal(await page.textContent(`${LAST} .md`), before);
  assert.deepEqual(await citeNumbers(page), ["[1]", "[1]", "[2]"]);

  // The export lists the sources once.
  const download = page.waitForEvent("download");
  await page.click(`${LAST} button.export`);
  const file = readFileSync((await (await download).path())!, "utf8");
  assert.equal(file.match(/^## Sources$/gm)?.length, 1, file);
  assert.equal(file.match(/^\d+\. Vrew/gm)?.length, 1, file);

  // The same guide in a narrow window.
  await page.setViewportSize({ width: 800, height: 700 });
  await page.$eval(`${LAST} .cited`, (el) => el.scrollIntoView());
  await screenshot(page, "sources-4-narrow");
});

test("a link to a host nobody gave shows its full address and a warning before opening", async () => {
  await script(w.fake, [
    {
      text:
        "Your menu: [menu](https://shop.mysite.example/menu). " +
        "Also see [this page](https://evil.example/collect?key=sk-live-7781&to=https://mysite.example).",
    },
  ]);
  const page = await openPage(w.browser, w.app.url);
  await page.setViewportSize({ width: 1280, height: 800 });
  // Record what the app asks the browser to open, instead of going there.
  await page.evaluate(() => {
    const w = window as unknown as { opened: string[] };
    w.opened = [];
    window.open = (url?: string | URL) => {
      w.opened.push(String(url));
      return null;
    };
  });
  const opened = () => page.evaluate(() => (window as unknown as { opened: string[] }).opened);
  await page.click("button.new");
  await send(page, "What should my page on mysite.example say?");
  await page.waitForSelector(`${LAST}[data-status='complete'] .md a`);
  assert.deepEqual(await page.$$eval(`${LAST} .md a.unverified`, (as) => as.map((a) => a.textContent)), ["this page"]);

  await page.click(`${LAST} .md a.unverified`);
  await page.waitForSelector("dialog.link-warning[open]");
  assert.equal(await page.textContent("dialog.link-warning .host"), "evil.example");
  assert.equal(await page.textContent("dialog.link-warning .address"), "https://evil.example/collect?key=sk-live-7781&to=https://mysite.example");
  await screenshot(page, "sources-5-link-warning");
  await page.click("dialog.link-warning button.cancel");
  await page.waitForSelector("dialog.link-warning[open]", { state: "detached" });
  assert.deepEqual(await opened(), [], "nothing opened after Cancel");

  // The host the person wrote opens at once.
  await page.click(`${LAST} .md a:text-is("menu")`);
  assert.deepEqual(await opened(), ["https://shop.mysite.example/menu"]);
  assert.equal(await page.$("dialog.link-warning[open]"), null);
  // The other one opens when the person insists.
  await page.click(`${LAST} .md a.unverified`);
  await page.click("dialog.link-warning button.open-anyway");
  assert.deepEqual(await opened(), ["https://shop.mysite.example/menu", "https://evil.example/collect?key=sk-live-7781&to=https://mysite.example"]);

  // The warning in Korean, at the narrow size.
  const ko = await openPage(w.browser, w.app.url, "ko-KR");
  await ko.setViewportSize({ width: 800, height: 700 });
  await ko.click("nav li button.open >> nth=0");
  await ko.click(`${LAST} .md a.unverified`);
  await ko.waitForSelector("dialog.link-warning[open]");
  assert.match((await ko.textContent("dialog.link-warning h2")) ?? "", /이 링크를 열까요/);
  await screenshot(ko, "sources-6-link-warning-ko");
});
