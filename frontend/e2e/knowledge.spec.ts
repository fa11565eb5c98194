// Importing a PDF from ../shared/eval/pdfs through the browser (Upload),
// seeing it listed and found by a Korean search, then asking a question
// whose answer cites it, and opening the cited passage. A Markdown file
// full of XSS payloads goes the same way and never runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { inertDOM, lastReply, openPage, repoRoot, screenshot, script, send, watchDialogs, withWorld } from "./harness.ts";

const PDF = join(repoRoot, "..", "shared", "eval", "pdfs", "ko", "unstructured_korean-text-with-tables.pdf");

const w = withWorld();

async function importFile(page: Page, path: string): Promise<void> {
  const name = path.split("/").pop()!;
  const before = await page.$$eval("table.docs tr[data-doc]", (rows) => rows.length);
  await page.setInputFiles("#kb-file-input", path);
  try {
    await page.waitForFunction(
      (n) => [...document.querySelectorAll(".progress li.file")].some((li) => li.querySelector(".name")?.textContent === n && li.getAttribute("data-stage") === "done"),
      name,
      { timeout: 60_000 },
    );
    await page.waitForFunction((b) => document.querySelectorAll("table.docs tr[data-doc]").length > b, before);
  } catch (e) {
    await screenshot(page, `knowledge-failed-${name}`);
    throw e;
  }
}

test("import a Korean PDF, search it, and get an answer that cites it", { skip: !existsSync(PDF) && `no ${PDF}` }, async () => {
  const page = await openPage(w.browser, w.app.url);
  await page.click(".views button >> nth=0");
  await page.waitForSelector("#kb-title");
  await importFile(page, PDF);
  const row = await page.textContent("table.docs tr[data-doc]");
  assert.match(row ?? "", /PDF/i);
  const bar = await page.getAttribute(".progress [role=progressbar]", "aria-valuenow");
  assert.equal(bar, "100");
  await screenshot(page, "knowledge-1-imported");

  // Korean search: the particle in "커피전문점은" must not matter.
  await page.click("#kb-tab-search");
  await page.fill("#kb-search", "커피전문점은 적립");
  await page.press("#kb-search", "Enter");
  await page.waitForSelector(".hit");
  const hits = await page.$$eval(".hit", (els) => els.map((e) => e.textContent ?? ""));
  assert.ok(hits.some((h) => h.includes("unstructured_korean-text-with-tables") && /적립/.test(h)), `a hit from the PDF: ${hits.join(" | ")}`);
  await screenshot(page, "knowledge-2-search");

  // A document question: retrieval up front, then one model call.
  await script(w.fake, [{ text: "커피전문점·제과점·편의점에서는 2% 빅포인트가 적립됩니다 [1]." }]);
  await page.click("button.new");
  await send(page, "커피전문점에서 적립률은 얼마인가요?");
  const reply = await lastReply(page);
  assert.equal(reply.status, "complete");
  const cite = await page.$("article[data-role='assistant']:last-of-type .md button.cite");
  assert.ok(cite, "the answer's [1] is a citation button");
  await cite.click();
  await page.waitForSelector("dialog.source[open]");
  assert.match((await page.textContent("dialog.source .snippet")) ?? "", /\S/);
  await page.click("dialog.source button.primary");
  // The PDF is the reply's source, listed under it; its passage opens.
  const sources = await page.$$eval("article[data-role='assistant']:last-of-type .cited li", (els) => els.map((e) => e.textContent ?? ""));
  const i = sources.findIndex((s) => s.includes("unstructured_korean-text-with-tables"));
  assert.ok(i >= 0, `the PDF is a source: ${sources.join(" | ")}`);
  await page.click(`article[data-role='assistant']:last-of-type .cited li >> nth=${i} >> button`);
  await page.waitForSelector("dialog.source[open]");
  assert.match((await page.textContent("dialog.source")) ?? "", /적립/);
  await screenshot(page, "knowledge-3-cited");
});

test("a document full of XSS payloads is shown as text everywhere", async () => {
  const dir = mkdtempSync(join(tmpdir(), "wf-xss-"));
  const file = join(dir, "xss-notes.md");
  writeFileSync(
    file,
    [
      "# Notes about scanners <img src=x onerror=alert('doc-img')>",
      "",
      "Scanner policy: <script>alert('doc-script')</script> every scanner is checked yearly.",
      "[click me](javascript:alert('doc-link')) <a href=\"JaVaScRiPt:alert('doc-a')\">x</a>",
      "<svg onload=alert('doc-svg')></svg> <iframe src=\"javascript:alert('doc-iframe')\"></iframe>",
      "<body onload=alert('doc-body')> <div style=\"background:url(javascript:alert('doc-css'))\">styled</div>",
      "<a href=\"&#106;avascript:alert('doc-entity')\">entity</a> <img src=\"x\" onerror=\"&#97;lert('doc-ent2')\">",
    ].join("\n"),
  );
  const page = await openPage(w.browser, w.app.url);
  const dialogs = watchDialogs(page);
  await page.click(".views button >> nth=0");
  await importFile(page, file);
  await page.click("#kb-tab-search");
  await page.fill("#kb-search", "scanner policy");
  await page.press("#kb-search", "Enter");
  await page.waitForSelector(".hit");
  assert.match((await page.textContent(".hit .snippet")) ?? "", /onerror|script/);

  await script(w.fake, [{ text: "Every scanner is checked yearly [1]. <img src=x onerror=alert('reply')>" }]);
  await page.click("button.new");
  await send(page, "What is the scanner policy?");
  await lastReply(page);
  const cite = await page.$("article[data-role='assistant']:last-of-type .md button.cite");
  if (cite) {
    await cite.click();
    await page.waitForSelector("dialog.source[open]");
  }
  await page.waitForTimeout(500);
  await screenshot(page, "knowledge-xss");
  assert.deepEqual(dialogs, [], "no payload ran");
  const dom = await inertDOM(page);
  assert.deepEqual(dom.handlers, []);
  assert.equal(dom.jsLinks, 0);
  assert.equal(dom.iframes, 0);
  assert.equal(dom.scripts, 0);
});
