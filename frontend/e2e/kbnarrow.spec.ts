// The Knowledge screen's documents at 800×700 while Ollama refuses the
// embeddings: a document found by its words, its meaning waiting, says so
// under its name in words that use the column, the bar under them, and the
// table stays inside the screen. The bar beside the words squeezed them to
// a word a line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fail, openPage, resetFake, screenshot, withWorld } from "./harness.ts";

const w = withWorld();

test("a document whose meaning waits reads in a narrow window, in English and Korean", async () => {
  await fail(w.fake, "/api/embed", -1, { kind: "http_500" });
  try {
    for (const [locale, name, body] of [
      ["en-US", "opening-hours.md", "# Opening hours\n\nWeekdays from 8 to 21, weekends from 10 to 20.\n"],
      ["ko-KR", "카페 운영 안내서 2026년 개정판.md", "# 영업시간\n\n평일 오전 8시부터 오후 9시까지, 주말은 오전 10시부터 오후 8시까지 엽니다.\n"],
    ] as const) {
      const page = await openPage(w.browser, w.app.url, locale, { width: 800, height: 700 });
      await page.click(".views button >> nth=0");
      await page.waitForSelector("#kb-title");
      await page.setInputFiles("#kb-file-input", { name, mimeType: "text/markdown", buffer: Buffer.from(body) });
      const row = `tr:has(td.title[title$="${name}"])`;
      await page.waitForSelector(`${row} .meaning[data-meaning='pending']`, { timeout: 60_000 });
      const fit = await page.$eval(row, (tr) => {
        const cell = tr.querySelector("td.title")!;
        const words = [...tr.querySelector(".meaning")!.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim())!;
        const r = document.createRange();
        r.selectNodeContents(words);
        const widest = Math.max(...[...r.getClientRects()].map((b) => b.width));
        // The panel grows with a table wider than the screen's room for it: measured against that room, not itself.
        const kb = tr.closest<HTMLElement>(".kb")!;
        const room = kb.getBoundingClientRect().right - parseFloat(getComputedStyle(kb).paddingRight);
        return { widest, cell: cell.clientWidth, panel: Math.round(room), scroll: Math.round(tr.closest("[role=tabpanel]")!.getBoundingClientRect().right) };
      });
      await screenshot(page, `kbnarrow-${locale}-800`);
      assert.ok(fit.scroll <= fit.panel, `the table goes past the screen in ${locale}: ${JSON.stringify(fit)}`);
      assert.ok(fit.widest >= fit.cell * 0.6, `the words are squeezed in ${locale}: ${JSON.stringify(fit)}`);
      await page.context().close();
    }
  } finally {
    await resetFake(w.fake);
  }
});
