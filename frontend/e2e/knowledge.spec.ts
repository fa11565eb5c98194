// Importing a PDF from ../shared/eval/pdfs through the browser (Upload),
// seeing it listed and found by a Korean search, then asking a question
// whose answer cites it, and opening the cited passage. A Markdown file
// full of XSS payloads goes the same way and never runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { answer, fail, inertDOM, lastReply, openPage, repoRoot, resetFake, screenshot, script, send, watchDialogs, withWorld } from "./harness.ts";

const PDF = join(repoRoot, "..", "shared", "eval", "pdfs", "ko", "unstructured_korean-text-with-tables.pdf");

// Real HWP 5.0 files from the npm package node-hwp (make deps-hwp).
const HWP_SAMPLES = process.env.WAYFINDER_HWP_SAMPLES ?? join(repoRoot, "tests", "hwpsamples", "node_modules", "node-hwp", "test", "files");

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
  assert.match((await page.textContent("dialog.source [data-part=hit]")) ?? "", /\S/);
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

/** uploadAndWait picks a file and waits for one more row of it in stage. */
async function uploadAndWait(page: Page, path: string, stage: string): Promise<string> {
  const name = path.split("/").pop()!;
  const count = () =>
    page.$$eval(".progress li.file", (lis, [n, s]) => lis.filter((li) => li.querySelector(".name")?.textContent === n && li.getAttribute("data-stage") === s).length, [name, stage]);
  const before = await count();
  await page.setInputFiles("#kb-file-input", path);
  try {
    await page.waitForFunction(
      ([n, s, b]) => [...document.querySelectorAll(".progress li.file")].filter((li) => li.querySelector(".name")?.textContent === n && li.getAttribute("data-stage") === s).length > Number(b),
      [name, stage, String(before)],
      { timeout: 60_000 },
    );
  } catch (e) {
    await screenshot(page, `knowledge-upload-failed-${name}`);
    throw e;
  }
  // The newest import is listed first.
  return page.$$eval(".progress li.file", (lis, [n, s]) => lis.find((li) => li.querySelector(".name")?.textContent === n && li.getAttribute("data-stage") === s)?.textContent ?? "", [name, stage]);
}

async function shots(page: Page, name: string): Promise<void> {
  for (const [width, height] of [[1280, 800], [800, 700]] as const) {
    await page.setViewportSize({ width, height });
    await screenshot(page, `${name}-${width}x${height}`);
  }
}

test("uploads in Korean: the same content once, a changed file replaces it, removing deletes the copy", async () => {
  const dir = mkdtempSync(join(tmpdir(), "wf-upload-"));
  const rules = join(dir, "출장 규정.md");
  const copy = join(dir, "사본.md");
  const v1 = "# 출장 규정\n\n## 교통비\n\n출장비는 하루 10만원까지 지원합니다.\n";
  writeFileSync(rules, v1);
  writeFileSync(copy, v1);
  const uploads = join(w.app.dataDir, "uploads");
  const list = () => (existsSync(uploads) ? readdirSync(uploads).filter((f) => !f.startsWith(".")) : []);
  const others = new Set(list()); // the other tests' uploads (the PDF, the XSS notes), whichever ran
  const kept = () => list().filter((f) => !others.has(f));
  const rows = (title: string) => page.$$eval("table.docs tr[data-doc]", (trs, t) => trs.filter((tr) => tr.textContent?.includes(t)).length, title);
  const page = await openPage(w.browser, w.app.url, "ko-KR");
  await page.click(".views button >> nth=0");
  await page.waitForSelector("#kb-title");

  await uploadAndWait(page, rules, "done");
  const dup = await uploadAndWait(page, copy, "duplicate");
  assert.match(dup, /이미 내 문서에 있어 다시 추가하지 않았습니다\(“출장 규정”\)/);
  writeFileSync(rules, "# 출장 규정\n\n## 숙박비\n\n숙박비는 하루 8만원까지 지원합니다.\n");
  const replaced = await uploadAndWait(page, rules, "done");
  assert.match(replaced, /이전 버전을 새 파일로 바꿨습니다/);
  await page.waitForFunction(() => [...document.querySelectorAll("table.docs tr[data-doc]")].filter((tr) => tr.textContent?.includes("출장 규정")).length === 1);
  assert.equal(await rows("사본"), 0, "the duplicate is not listed");
  assert.deepEqual(kept(), ["출장 규정.md"]);
  assert.match(readFileSync(join(uploads, "출장 규정.md"), "utf8"), /숙박비는/);

  // A file with a bad byte imports, with a warning that names the line.
  const memo = join(dir, "메모.txt");
  writeFileSync(memo, Buffer.concat([Buffer.from("첫째 줄입니다\n둘째 줄 "), Buffer.from([0xff]), Buffer.from("\n셋째 줄\n")]));
  const warned = await uploadAndWait(page, memo, "done");
  // The warning itself is worded in Korean too, from its parts.
  assert.match(warned, /가져왔지만 확인이 필요합니다: 읽을 수 없는 글자 1개를 \uFFFD로 바꿨습니다\(2번째 줄\)/);

  // A PDF that cannot be read says why in Korean (not the Go error) and leaves nothing behind.
  const locked = join(dir, "잠긴 문서.pdf");
  copyFileSync(join(repoRoot, "backend", "knowledge", "testdata", "library", "encrypted.pdf"), locked);
  const failed = await uploadAndWait(page, locked, "failed");
  assert.match(failed, /이 PDF는 암호로 보호되어 있습니다\. 암호를 없앤 사본을 저장해 그 파일을 추가하세요\./);
  assert.doesNotMatch(failed, /import "|protected by a password/);
  // Said once: the progress row says it, the import's report does not repeat it.
  const panel = (await page.textContent("#kb-panel-docs")) ?? "";
  assert.equal(panel.split("이 PDF는 암호로 보호되어 있습니다").length - 1, 1, panel);
  assert.doesNotMatch(panel, /import "/);
  await shots(page, "knowledge-uploads-ko");

  await page.click("#kb-tab-search");
  await page.fill("#kb-search", "숙박비는 얼마");
  await page.press("#kb-search", "Enter");
  await page.waitForSelector(".hit .hit-where");
  const where = await page.$$eval(".hits > li:first-child .hit-where span", (els) => els.map((e) => e.textContent));
  // Titled "출장 규정", its file's name: the line under the title does not say "출장 규정.md" again (the title's tooltip does).
  assert.deepEqual(where, ["출장 규정 › 숙박비"]);
  assert.match((await page.getAttribute(".hits > li:first-child .open-hit", "title")) ?? "", /출장 규정\.md$/);
  await shots(page, "knowledge-hit-where-ko");

  await page.click("#kb-tab-docs");
  await page.click("table.docs tr[data-doc]:has-text('출장 규정') button.remove");
  await page.click("table.docs tr[data-doc]:has-text('출장 규정') button.confirm-remove");
  await page.waitForFunction(() => ![...document.querySelectorAll("table.docs tr[data-doc]")].some((tr) => tr.textContent?.includes("출장 규정")));
  assert.deepEqual(kept(), ["메모.txt"], "removing the document deletes its uploaded copy");
});

test("Word, PowerPoint, HWP, OpenDocument, web pages and EPUB in Korean: listed, found under their headings; an HWP 3 file says what to save it as", async () => {
  const office = join(repoRoot, "backend", "knowledge", "importer", "testdata", "office");
  const dir = mkdtempSync(join(tmpdir(), "wf-office-"));
  const docx = join(dir, "학칙.docx");
  const odt = join(dir, "학칙 사본.odt");
  copyFileSync(join(office, "regulation.docx"), docx);
  copyFileSync(join(office, "regulation.odt"), odt);
  const page1 = join(dir, "휴학 안내.html");
  writeFileSync(page1, `<!doctype html><html><head><meta charset="utf-8"><title>휴학 안내 | 학사지원팀</title><script>alert("no")</script></head>
<body><nav>홈 · 학사 · 공지</nav><h1>휴학 안내</h1><h2>신청 기간</h2><p>휴학은 매 학기 개시 전까지 포털에서 신청한다.<table><tr><th>구분<th>기간<tr><td>일반휴학<td>2월 1일~2월 28일</table></body></html>`);
  const hwp = join(dir, "옛 규정.hwp");
  // 한글 97 and before wrote HWP 3, which is not read (HWP 5.0 is).
  writeFileSync(hwp, Buffer.concat([Buffer.from("HWP Document File V3.00 \x1a\x01\x02\x03\x04\x05"), Buffer.alloc(512)]));
  const page = await openPage(w.browser, w.app.url, "ko-KR");
  await page.click(".views button >> nth=0");
  await page.waitForSelector("#kb-title");
  await uploadAndWait(page, docx, "done");
  // pandoc wrote the same text into both: the second is the same
  // document's text but another file, so it is imported beside it.
  await uploadAndWait(page, odt, "done");
  await uploadAndWait(page, page1, "done");
  const book = join(dir, "학칙.epub");
  copyFileSync(join(office, "regulation.epub"), book);
  await uploadAndWait(page, book, "done");
  const slides = join(dir, "학칙 강의.pptx");
  copyFileSync(join(office, "regulation.pptx"), slides);
  await uploadAndWait(page, slides, "done");
  // Hancom's binary HWP 5.0: a KAIST form, its table rows as lines.
  const form = join(HWP_SAMPLES, "kaist", "kaist-055.hwp");
  assert.ok(existsSync(form), `${form} is missing: run make deps-hwp`);
  const hwp5 = join(dir, "복수전공 신청서.hwp");
  copyFileSync(form, hwp5);
  await uploadAndWait(page, hwp5, "done");
  const failed = await uploadAndWait(page, hwp, "failed");
  assert.match(failed, /한글 97 이전의 HWP 3 형식이라 Wayfinder가 읽지 못합니다\. 한글에서 열어 \.hwpx\(또는 PDF\)로 저장한 뒤 그 파일을 추가하세요\./);
  await shots(page, "knowledge-office-ko");

  await page.click("#kb-tab-search");
  await page.fill("#kb-search", "등록금은 언제 내나요");
  await page.press("#kb-search", "Enter");
  await page.waitForSelector(".hit .hit-where");
  // Each hit's file (its title's tooltip: a document titled by its file's name is not named again under it) and where-line.
  const where = await page.$$eval(".hits > li", (lis) => lis.map((li) => `${li.querySelector(".open-hit")?.getAttribute("title") ?? ""} | ${li.querySelector(".hit-where")?.textContent ?? ""}`));
  for (const file of ["학칙.docx", "학칙 사본.odt", "학칙.epub"]) {
    assert.ok(where.some((w) => w.includes(file) && w.includes("제1장 총칙 › 제2조(등록금)")), `${file} under its heading: ${where.join(" | ")}`);
  }
  // A slide is called a slide (not 쪽); its title is its heading.
  assert.ok(where.some((w) => w.includes("학칙 강의.pptx") && w.includes("슬라이드 2") && w.includes("제1장 총칙")), `the slides: ${where.join(" | ")}`);
  assert.ok(!where.some((w) => w.includes("학칙 강의.pptx") && /\d쪽/.test(w)), `a slide is not a page: ${where.join(" | ")}`);
  await shots(page, "knowledge-office-search-ko");
  // The reader labels the slide it opens on.
  await page.click(".hits > li:has-text('학칙 강의.pptx') button.read-hit");
  await page.waitForSelector("dialog.reader[open] .place");
  const places = await page.$$eval("dialog.reader .place", (els) => els.map((e) => e.textContent ?? ""));
  assert.ok(places.some((p) => p.startsWith("슬라이드 2")), `the reader's labels: ${places.join(" | ")}`);
  assert.ok(!places.some((p) => /\d쪽/.test(p)), `the reader's labels: ${places.join(" | ")}`);
  await screenshot(page, "knowledge-office-slide-reader-ko");
  await page.click("dialog.reader form button");
  // The documents' length: slides for the deck.
  await page.click("#kb-tab-docs");
  assert.ok(((await page.textContent("table.docs thead")) ?? "").includes("분량"), "the length column");
  // The row shows the deck's title (학칙); its file is the title cell's tooltip.
  const deck = (await page.textContent("table.docs tr[data-doc]:has(td.title[title$='학칙 강의.pptx'])")) ?? "";
  assert.match(deck, /슬라이드 4장/);
  assert.doesNotMatch(deck, /4쪽/);
  await page.locator("table.docs tr[data-doc]:has(td.title[title$='학칙 강의.pptx'])").scrollIntoViewIfNeeded();
  await screenshot(page, "knowledge-office-length-ko");

  await page.click("#kb-tab-search");
  await page.fill("#kb-search", "복수전공 부전공 이수 신청");
  await page.press("#kb-search", "Enter");
  await page.waitForFunction(() => document.querySelector(".hits > li .open-hit")?.getAttribute("title")?.endsWith("복수전공 신청서.hwp"));
  const form1 = (await page.textContent(".hits > li:first-child")) ?? "";
  assert.match(form1, /과 정 \| 학과\/전공 \| 학 번 \| 성 명 \| 학생구분/);
  await shots(page, "knowledge-hwp-search-ko");

  // The page is named by its <title>; its scripts and menu are not text.
  await page.fill("#kb-search", "휴학 신청 기간");
  await page.press("#kb-search", "Enter");
  await page.waitForFunction(() => document.querySelector(".hits > li .open-hit")?.getAttribute("title")?.endsWith("휴학 안내.html"));
  const first = (await page.textContent(".hits > li:first-child")) ?? "";
  assert.match(first, /휴학 안내 \| 학사지원팀/);
  assert.match(first, /휴학 안내 › 신청 기간/);
  assert.match(first, /일반휴학 \| 2월 1일~2월 28일/);
  assert.doesNotMatch(first, /alert|홈 · 학사/);

  // An answer citing the deck cites its slide, under the reply and in the source's dialog.
  await script(w.fake, answer("등록금은 매 학기 개시 전에 납부합니다 [1][2][3][4][5]."));
  await page.click("button.new");
  await send(page, "등록금은 언제 내나요?");
  assert.equal((await lastReply(page)).status, "complete");
  const listed = await page.$$eval("article[data-role='assistant']:last-of-type :is(.cited, .retrieved) li", (els) => els.map((e) => e.textContent ?? ""));
  const i = listed.findIndex((l) => l.includes("슬라이드 2"));
  assert.ok(i >= 0, `the deck among the sources, by its slide: ${listed.join(" | ")}`);
  await page.locator(`article[data-role='assistant']:last-of-type :is(.cited, .retrieved) li >> nth=${i}`).scrollIntoViewIfNeeded();
  await screenshot(page, "knowledge-office-slide-sources-ko");
  await page.click(`article[data-role='assistant']:last-of-type :is(.cited, .retrieved) li >> nth=${i} >> button`);
  await page.waitForSelector("dialog.source[open] .place");
  assert.match((await page.textContent("dialog.source .where")) ?? "", /학칙 강의\.pptx · 슬라이드 2/);
  await screenshot(page, "knowledge-office-slide-cited-ko");
  await page.context().close();
});

// Last in this file: the fake's embeddings hang while it runs (the catalog
// embedded long before).
test("stopping imports in Korean: a file added while another embeds does not wait for it, and one stopped while it embeds stays, found by its words", async () => {
  const dir = mkdtempSync(join(tmpdir(), "wf-stop-"));
  const slow = join(dir, "느린 보고서.md");
  const next = join(dir, "다음 문서.md");
  writeFileSync(slow, "# 느린 보고서\n\n" + "임베딩이 오래 걸리는 긴 문단입니다. ".repeat(300) + "\n");
  writeFileSync(next, "# 다음 문서\n\n" + "앞의 파일이 임베딩되기를 기다리지 않습니다. ".repeat(200) + "\n");
  const uploads = join(w.app.dataDir, "uploads");
  const leftovers = () => (existsSync(uploads) ? readdirSync(uploads, { recursive: true }).map(String).filter((f) => f.includes("느린") || f.includes("다음")).sort() : []);
  const row = (name: string) => `.progress li.file:has(.name[title$="${name}"])`;
  const page = await openPage(w.browser, w.app.url, "ko-KR", { width: 1280, height: 800 });
  await page.click(".views button >> nth=0");
  await page.waitForSelector("#kb-title");
  // Every embedding hangs: only a hand-on or a stop ends one.
  await fail(w.fake, "/api/embed", -1, { kind: "hang" });
  try {
    // One file at a time: given together, the two uploads may reach the
    // backend in either order, and the second to arrive is the one that
    // embeds in line (alone), held by the hang.
    await page.setInputFiles("#kb-file-input", [slow]);
    await page.waitForSelector(`${row("느린 보고서.md")}[data-stage="embedding"]`, { timeout: 60_000 });
    await page.setInputFiles("#kb-file-input", [next]);
    // The first file's embedding goes on in the background once the second is added: it does not hold it up.
    await page.waitForSelector(`${row("느린 보고서.md")}[data-stage="done"]`, { timeout: 60_000 });
    assert.equal(await page.textContent(`${row("느린 보고서.md")} .stage`), "추가했습니다. 지금은 키워드로 찾을 수 있고, 다음 파일을 읽는 동안 임베딩은 뒤에서 이어서 합니다");
    await page.waitForSelector(`${row("다음 문서.md")}[data-stage="embedding"] button.stop`, { timeout: 60_000 });
    await screenshot(page, "knowledge-stop-1-running-ko");

    // Stopped by keyboard (its button has focus, Enter presses it): read and swapped in before it embeds, it stays; only its embedding stops.
    const stop = page.locator(`${row("다음 문서.md")} button.stop`);
    assert.equal(await stop.textContent(), "중지");
    assert.equal(await stop.getAttribute("aria-label"), "다음 문서.md 가져오기 중지");
    await stop.focus();
    await page.keyboard.press("Enter");
    await page.waitForSelector(`${row("다음 문서.md")}[data-stage="done"]`, { timeout: 30_000 });
    assert.equal(await page.textContent(`${row("다음 문서.md")} .stage`), "추가했습니다. 지금은 키워드로 찾고, 의미 색인은 목록에서 다시 시작할 때까지 멈춥니다");
    assert.equal(await page.locator(".progress button.stop").count(), 0, "no Stop button once stopped");
    await screenshot(page, "knowledge-stop-2-stopped-ko");
    await page.waitForFunction(() => ["느린", "다음"].every((w) => [...document.querySelectorAll("table.docs tr[data-doc]")].some((tr) => tr.textContent?.includes(w))), null, { timeout: 30_000 });
    assert.deepEqual(leftovers(), ["느린 보고서.md", "다음 문서.md"], "both files' copies are kept");
  } finally {
    await resetFake(w.fake);
  }
});

test("a list longer than the window scrolls inside the Knowledge screen, never the window itself, in English and Korean", async () => {
  const dir = mkdtempSync(join(tmpdir(), "wf-long-list-"));
  const files = Array.from({ length: 14 }, (_, i) => {
    const f = join(dir, `${i + 1}. 2026년도 공공기관 개인정보보호 종합계획 및 세부추진과제 보고서.md`);
    writeFileSync(f, `# 보고서 ${i + 1}\n\n개인정보보호 세부추진과제 ${i + 1}번입니다.\n`);
    return f;
  });
  for (const locale of ["en-US", "ko-KR"]) {
    const page = await openPage(w.browser, w.app.url, locale);
    await page.click(".views button >> nth=0");
    await page.waitForSelector("#kb-title");
    if (locale === "en-US") await page.setInputFiles("#kb-file-input", files);
    // The Korean page imports nothing: it waits for the list to load, or it measured a screen with no rows yet.
    await page.waitForFunction((n) => [...document.querySelectorAll("table.docs tr[data-doc]")].filter((tr) => /보고서 \d/.test(tr.textContent ?? "")).length >= n, files.length, { timeout: 60_000 });
    for (const [width, height] of [[1280, 800], [800, 700]] as const) {
      await page.setViewportSize({ width, height });
      // Scrolled to the end of the list: the screen scrolls, the window does not (the table's visually hidden
      // column name, placed against the window and not the screen, made the window longer: it scrolled too, the
      // sidebar went up with it and a blank band showed under it).
      const got = await page.evaluate(() => {
        const content = document.querySelector<HTMLElement>(".content")!;
        content.scrollTop = content.scrollHeight;
        const root = document.scrollingElement!;
        root.scrollTop = root.scrollHeight;
        return { longer: content.scrollHeight > content.clientHeight, window: root.scrollHeight - root.clientHeight, scrolled: root.scrollTop };
      });
      assert.ok(got.longer, `the list is longer than the ${width}x${height} window`);
      assert.deepEqual([got.window, got.scrolled], [0, 0], `the window itself does not scroll at ${width}x${height}`);
      await screenshot(page, `knowledge-long-list-${locale.slice(0, 2)}-${width}x${height}`);
      // Remove asks in its row without moving the list: the columns keep their widths and the rows their heights
      // (two buttons in the last column squeezed the names, which took more lines, at 800 px).
      const boxes = () => page.$$eval("table.docs tr[data-doc]", (trs) => (trs as HTMLTableRowElement[]).map((tr) => [Math.round(tr.getBoundingClientRect().height), ...[...tr.cells].map((c) => Math.round(c.getBoundingClientRect().width))].join(",")));
      const before = await boxes();
      const row = "table.docs tr[data-doc] >> nth=0";
      await page.click(`${row} >> button.remove`);
      await page.waitForSelector("table.docs button.confirm-remove");
      assert.deepEqual(await boxes(), before, `the list stays put while Remove asks at ${width}x${height}: ${JSON.stringify(await boxes())} ${JSON.stringify(before)}`);
      const [confirm, cancel, cell] = await Promise.all(["button.confirm-remove", "button.cancel-remove", "td.acts"].map((sel) => page.locator(`${row} >> ${sel}`).boundingBox()));
      assert.ok(confirm && cancel && cell && confirm.x >= 0 && cancel.x + cancel.width <= cell.x + cell.width + 1, `the question is in its row, in view: ${JSON.stringify([confirm, cancel, cell])}`);
      await screenshot(page, `knowledge-remove-ask-${locale.slice(0, 2)}-${width}x${height}`);
      await page.click(`${row} >> button.cancel-remove`);
      await page.waitForSelector("table.docs button.confirm-remove", { state: "detached" });
    }
    await page.close();
  }
});
