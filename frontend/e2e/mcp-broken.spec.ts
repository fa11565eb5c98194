// A broken mcp.json, edited by hand, in the window against `wayfinder
// serve`: Settings words each mistake on a line of its own (which server,
// what, on which line) in the person's language, and the server whose
// entry is right stays listed, ready to start. At 1280×800, in English
// and Korean (mcp-broken-{en,ko}-1280.png).
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openPage, screenshot, withWorld } from "./harness.ts";

const w = withWorld();

const FILE = `{
  "mcpServers": {
    "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"]},
    "weather": {"type": "sse", "url": "http://127.0.0.1:8931/sse"},
    "search": {"url": "ftp://search.example/mcp"}
  }
}
`;

test("a broken mcp.json: each mistake on its own line, in English and Korean, the right server kept", async () => {
  writeFileSync(join(w.app.dataDir, "mcp.json"), FILE);
  const listed = (await w.api("MCPService/List", [false])) as Array<{ name: string; state: string }>;
  assert.deepEqual(listed.map((s) => [s.name, s.state]), [["files", "idle"], ["search", "invalid"], ["weather", "invalid"]]);
  for (const [locale, lang, settings, weather, search] of [
    ["en-US", "en", "Settings", "Line 4: The MCP server weather asks for a transport Wayfinder does not speak: sse", "Line 5: Not an http:// or https:// address: ftp://search.example/mcp"],
    ["ko-KR", "ko", "설정", "4번째 줄: MCP 서버 weather의 전송 방식은 Wayfinder가 지원하지 않습니다: sse", "5번째 줄: http:// 또는 https:// 주소가 아닙니다: ftp://search.example/mcp"],
  ] as const) {
    const page = await openPage(w.browser, w.app.url, locale, { width: 1280, height: 800 });
    await page.click(`button[aria-label='${settings}']`);
    const card = (name: string) => page.locator(`.mcp li[data-server='${name}']`);
    await card("weather").waitFor();
    assert.deepEqual(await card("weather").locator(".problem").allTextContents(), [weather]);
    assert.deepEqual(await card("search").locator(".problem").allTextContents(), [search]);
    assert.equal(await card("files").getAttribute("data-state"), "idle");
    await page.locator(".mcp .invalid-lead").scrollIntoViewIfNeeded();
    await screenshot(page, `mcp-broken-${lang}-1280`);
    await page.context().close();
  }
});
