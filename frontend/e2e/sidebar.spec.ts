// The conversation list in a real browser, in Korean at 800×700: a title
// refused for its length stays in its rename box, and the toast of a
// deleted conversation with a long title keeps its Undo on one line while
// the focus goes to New chat.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lastReply, openPage, screenshotSizes, send, withWorld } from "./harness.ts";

const w = withWorld();

test("rename refused, then delete with a long title, in Korean at 800×700", async () => {
  const page = await openPage(w.browser, w.app.url, "ko-KR", { width: 800, height: 700 });
  await send(page, "부산 해운대 근처에서 조용히 일하기 좋은 카페를 찾고 있어요. 콘센트가 많고 오래 앉아 있어도 되는 곳으로요");
  await lastReply(page);
  await w.settle();
  const row = page.locator(".sidebar .list li").first();

  // A title over 200 characters: the error says so, the words stay in the box.
  const long = "가나다라 long title ".repeat(20);
  await row.hover();
  await row.locator("button[title='이름 바꾸기']").click();
  await page.fill(".sidebar input.rename", long);
  await page.press(".sidebar input.rename", "Enter");
  await page.waitForSelector(".toast.error");
  assert.match((await page.textContent(".toast.error")) ?? "", /제목이 너무 깁니다/);
  assert.equal(await page.inputValue(".sidebar input.rename"), long);
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains("rename")), true, "the caret is back in the box");
  await screenshotSizes(page, "sidebar-1-refused-ko");
  await page.press(".sidebar input.rename", "Escape");
  await page.click(".toast.error button");

  // Deleted: the toast names the conversation, its Undo on one line.
  await row.hover();
  await row.locator("button[title='삭제']").click();
  const undo = page.locator(".toast button", { hasText: "실행 취소" });
  await undo.waitFor();
  const lines = await undo.evaluate((b) => {
    const r = document.createRange();
    r.selectNodeContents(b);
    return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
  });
  assert.equal(lines, 1, "실행 취소 broke over lines");
  // The only conversation gone, the focus is on New chat, not lost to the page.
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains("new")), true, "the focus went to the page");
  await screenshotSizes(page, "sidebar-2-deleted-ko");
  await undo.click();
  await page.waitForSelector(".sidebar .list li");
  // Undo gone with its toast, the focus is on the conversation brought back.
  await page.waitForFunction(() => document.activeElement?.matches(".sidebar li button.open"));
});
