// A Korean word spaced otherwise in a document than in the query is found,
// shown and marked: a form's letter-spaced title ("위 임 장" for 위임장), a
// compound written apart (도구 모음 for 도구모음) and a word broken across a
// line as PDF text keeps it (적|용한다). The hit's snippet is cut around the
// word (not around an earlier "위임 사항" of the text) and the word is marked
// there and in the reader (backend/knowledge/marks.go, highlight.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importFile, openPage, withWorld } from "./harness.ts";

const w = withWorld();

test("a Korean word spaced otherwise is marked in the hit's snippet and in the reader", async () => {
  const file = join(mkdtempSync(join(tmpdir(), "wf-marks-")), "위임-서식.txt");
  const early = "위임 사항은 아래와 같이 정리하여 보관합니다. ".repeat(12);
  writeFileSync(file, `${early}\n\n위 임 장(갑)\n\n성명과 주소를 적습니다. 서식 도구 모음 표시를 켭니다.\n이 규정은 모든 직원에게 적\n용한다.\n`);
  const page = await openPage(w.browser, w.app.url, "ko-KR");
  await page.click(".views button >> nth=0");
  await page.waitForSelector("#kb-title");
  await importFile(page, file);
  for (const c of [
    { query: "위임장", snippet: "위 임 장", reader: "위 임 장" },
    { query: "도구모음", snippet: "도구 모음", reader: "도구 모음" },
    { query: "적용한다", snippet: "적 용한다", reader: "적\n용한다" },
  ]) {
    await page.click("#kb-tab-search");
    await page.fill("#kb-search", c.query);
    await page.press("#kb-search", "Enter");
    const hit = ".hit:has-text('위임-서식')";
    const marks = `${hit} .snippet mark`;
    // The last query's hits stay on the screen until this one's arrive, so wait for this query's marks (or
    // the timeout) and then compare: waiting for any mark read the last query's "도구 모음" for 적용한다.
    const shows = ([title, want]: string[]) =>
      [...document.querySelectorAll(".hit")].some((h) => h.textContent?.includes(title) && [...h.querySelectorAll(".snippet mark")].map((m) => m.textContent).join("|") === want);
    await page.waitForFunction(shows, ["위임-서식", c.snippet], { timeout: 30_000 }).catch(() => undefined);
    const shown = await page.$$eval(marks, (els) => els.map((e) => e.textContent));
    assert.deepEqual(shown, [c.snippet], `${c.query}: the snippet marks ${JSON.stringify(shown)}`);
    await page.click(`${hit} button.read-hit`);
    await page.waitForSelector("dialog.reader[open] [data-part=hit] mark");
    const read = await page.$$eval("dialog.reader [data-part=hit] mark", (els) => els.map((e) => e.textContent));
    assert.deepEqual(read, [c.reader], `${c.query}: the reader marks ${JSON.stringify(read)}`);
    await page.click("dialog.reader form button");
    await page.waitForSelector("dialog.reader[open]", { state: "detached" });
  }
  await page.context().close();
});
