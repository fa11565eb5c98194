// An MCP server that does not start, in the window against `wayfinder
// serve`: Settings says why in the person's language from the reason's
// parts (a program that is not there), with the English error apart as a
// detail of its own — never inside the translated sentence. At 1280×800,
// in English and Korean (mcp-why-{en,ko}-1280.png).
import { test } from "node:test";
import assert from "node:assert/strict";
import { openPage, screenshot, withWorld } from "./harness.ts";

const w = withWorld();
const MISSING = "/nonexistent/wayfinder-mcp-server";

test("an MCP server that does not start says why, in English and Korean", async () => {
  const added = (await w.api("MCPService/Add", [{ name: "notes", command: MISSING, args: [], url: "", env: {} }])) as Array<{ state: string; reason?: string }>;
  assert.equal(added[0]?.state, "failed");
  assert.equal(added[0]?.reason, "command_missing");
  for (const [locale, lang, settings, why] of [
    ["en-US", "en", "Settings", /^It did not start: program not found: \/nonexistent\/wayfinder-mcp-server ?(Wayfinder tries again in \d+ s\.)?$/],
    ["ko-KR", "ko", "설정", /^시작하지 못했습니다: 실행할 프로그램이 없음: \/nonexistent\/wayfinder-mcp-server ?(\d+초 뒤에 다시 시도합니다\.)?$/],
  ] as const) {
    const page = await openPage(w.browser, w.app.url, locale, { width: 1280, height: 800 });
    await page.click(`button[aria-label='${settings}']`);
    const server = page.locator(".mcp li[data-server='notes'][data-state='failed']");
    await server.waitFor();
    assert.match((await server.locator(".why").textContent()) ?? "", why);
    // The error itself, as the system gave it, apart.
    assert.match((await server.locator(".error-text").textContent()) ?? "", /wayfinder-mcp-server/);
    if (lang === "ko") assert.doesNotMatch((await server.locator(".why").textContent()) ?? "", /no such file|executable|not found/);
    await server.scrollIntoViewIfNeeded();
    await screenshot(page, `mcp-why-${lang}-1280`);
    await page.context().close();
  }
});
