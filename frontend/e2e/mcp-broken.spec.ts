// A broken mcp.json, edited by hand, in the window against `wayfinder
// serve`: Settings words each mistake on a line of its own (which server,
// what, on which line) in the person's language, and the server whose
// entry is right stays listed, ready to start. At 1280×800, in English
// and Korean (mcp-broken-{en,ko}-1280.png). An entry with mistakes is
// removed there, and a server switched beside the other, which stays in
// the file as written (mcp-broken-removed-en-1280.png). A chat turn says
// in its trace that the broken entries were not started and that a server
// did not start, each worded first and its raw cause muted under it
// (mcp-trace-{en,ko}-1280.png). mcp.json edited into something that is
// not JSON while the app runs: a turn's trace says once where the file
// is wrong and that the server read before keeps running, and says
// nothing of it once the file is fixed (mcp-unreadable-{en,ko}-1280.png;
// the npm reference filesystem server, make deps-mcp).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lastReply, openPage, repoRoot, screenshot, script, send, withWorld } from "./harness.ts";

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

test("an entry with mistakes is removed in Settings, a server switched beside the other, which stays as written", async () => {
  const path = join(w.app.dataDir, "mcp.json");
  writeFileSync(path, FILE);
  const page = await openPage(w.browser, w.app.url, "en-US", { width: 1280, height: 800 });
  await page.click("button[aria-label='Settings']");
  const card = (name: string) => page.locator(`.mcp li[data-server='${name}']`);
  await card("search").locator("button.remove").click();
  await card("search").locator("button.remove-yes").click();
  await card("search").waitFor({ state: "detached" });
  await card("files").locator(".head input[type=checkbox]").uncheck();
  await page.locator(".mcp li[data-server='files'][data-state='off']").waitFor();
  assert.equal(await page.locator(".mcp .banner").count(), 0);
  const file = readFileSync(path, "utf8");
  const compact = JSON.stringify(JSON.parse(file));
  assert.ok(!file.includes('"search"'), file);
  assert.ok(compact.includes('"weather":{"type":"sse","url":"http://127.0.0.1:8931/sse"}'), file);
  assert.ok(compact.includes('"files":{"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem","/home/me/notes"],"disabled":true}'), file);
  assert.deepEqual(await card("weather").locator(".problem").allTextContents(), ["Line 12: The MCP server weather asks for a transport Wayfinder does not speak: sse"]);
  await page.locator(".mcp .invalid-lead").scrollIntoViewIfNeeded();
  await screenshot(page, "mcp-broken-removed-en-1280");
  await page.context().close();
});

test("a turn's trace says which servers did not start and why: worded first, the raw cause muted under it", async () => {
  writeFileSync(join(w.app.dataDir, "mcp.json"), FILE.replace('"command": "npx"', '"command": "/nonexistent/mcp-files"'));
  for (const [locale, lang, invalid, failed] of [
    ["en-US", "en", "MCP server search not started (its entry in mcp.json has mistakes; see Settings › MCP servers); going on without its tools",
      "MCP server files did not start (program not found: /nonexistent/mcp-files); going on without its tools"],
    ["ko-KR", "ko", "MCP 서버 search 시작 안 함(mcp.json의 항목에 잘못된 곳이 있음 — 설정 › MCP 서버에서 확인) — 이 서버의 도구 없이 계속합니다",
      "MCP 서버 files 시작 실패(실행할 프로그램이 없음: /nonexistent/mcp-files) — 이 서버의 도구 없이 계속합니다"],
  ] as const) {
    const page = await openPage(w.browser, w.app.url, locale, { width: 1280, height: 800 });
    await script(w.fake, [{ text: lang === "ko" ? "안녕하세요." : "Hello." }]); // a greeting: no reflection after it

    await send(page, lang === "ko" ? "안녕" : "hello");
    assert.equal((await lastReply(page)).text, lang === "ko" ? "안녕하세요." : "Hello.");
    const steps = page.locator("#trace-panel [data-testid='trace-steps'] li");
    const step = (text: string) => steps.filter({ hasText: text });
    // The trace's steps arrive as events of their own: the reply can be
    // shown before the panel has drawn them.
    for (const text of [invalid, failed, "weather"]) await step(text).first().waitFor({ timeout: 10_000 });
    assert.equal(await step(invalid).count(), 1, await steps.allInnerTexts().then((t) => t.join("\n")));
    assert.match((await step(invalid).locator(".cause").textContent()) ?? "", /url "ftp:\/\/search\.example\/mcp" must be an http:\/\/ or https:\/\/ address/);
    assert.equal(await step(failed).count(), 1);
    assert.match((await step(failed).locator(".cause").textContent()) ?? "", /\/nonexistent\/mcp-files/);
    assert.equal(await step("weather").count(), 1, "the other entry with mistakes is said once too");
    await screenshot(page, `mcp-trace-${lang}-1280`);
    await page.context().close();
  }
});

const SERVER = join(process.env.WAYFINDER_MCP_SERVERS ?? join(repoRoot, "tests", "mcpservers", "node_modules", ".bin"), "mcp-server-filesystem");

test("mcp.json broken while the app runs: the trace says where, the server read before keeps running, and nothing once fixed", async () => {
  assert.ok(existsSync(SERVER), `${SERVER} is missing: run make deps-mcp`);
  const folder = mkdtempSync(join(tmpdir(), "wayfinder-e2e-mcp-"));
  const path = join(w.app.dataDir, "mcp.json");
  const entry = `"files": {"command": ${JSON.stringify(SERVER)}, "args": [${JSON.stringify(folder)}]}`;
  const valid = `{\n  "mcpServers": {\n    ${entry}\n  }\n}\n`;
  // Line 4, column 5: "oops" where the next key should start.
  const broken = `{\n  "mcpServers": {\n    ${entry},\n    oops\n  }\n}\n`;
  /** turn sends a greeting in a new conversation and returns the trace's steps. */
  const turn = async (locale: string, text: string, reply: string) => {
    const page = await openPage(w.browser, w.app.url, locale, { width: 1280, height: 800 });
    await script(w.fake, [{ text: reply }]);
    await send(page, text);
    assert.equal((await lastReply(page)).text, reply);
    return { page, steps: page.locator("#trace-panel [data-testid='trace-steps'] li") };
  };
  try {
    writeFileSync(path, valid);
    const first = await turn("en-US", "hello", "Hello.");
    assert.equal(await first.steps.filter({ hasText: "mcp.json" }).count(), 0);
    assert.equal(await first.steps.filter({ hasText: "did not start" }).count(), 0, await first.steps.allInnerTexts().then((t) => t.join("\n")));
    await first.page.context().close();

    writeFileSync(path, broken);
    for (const [locale, lang, text, reply, line] of [
      ["en-US", "en", "hello", "Hello.",
        "mcp.json could not be read again (it is not valid JSON at line 4, column 5; see Settings › MCP servers); the MCP servers as set up before the edit keep running: files"],
      ["ko-KR", "ko", "안녕", "안녕하세요.",
        "mcp.json을 다시 읽지 못함(4번째 줄 5번째 글자에서 JSON 형식이 잘못됨 — 설정 › MCP 서버에서 확인) — 고치기 전 설정대로 MCP 서버를 계속 실행합니다: files"],
    ] as const) {
      const { page, steps } = await turn(locale, text, reply);
      const step = steps.filter({ hasText: line });
      await step.first().waitFor({ timeout: 10_000 });
      assert.equal(await step.count(), 1, await steps.allInnerTexts().then((t) => t.join("\n")));
      assert.match((await step.locator(".cause").textContent()) ?? "", /not valid JSON at line 4, column 5/);
      await screenshot(page, `mcp-unreadable-${lang}-1280`);
      await page.context().close();
    }

    writeFileSync(path, valid);
    const fixed = await turn("en-US", "hello", "Hello.");
    assert.equal(await fixed.steps.filter({ hasText: "mcp.json" }).count(), 0, await fixed.steps.allInnerTexts().then((t) => t.join("\n")));
    await fixed.page.context().close();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
