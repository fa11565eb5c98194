// MCP against `wayfinder serve`, the scripted fake Ollama and the npm
// reference filesystem server over stdio (make deps-mcp): the server is
// added through the Settings service and shows its tools in Settings; a
// question whose answer calls its read_text_file tool waits in the
// approval dialog (server, tool, arguments); run once, then always (the
// next call runs without asking), then the grant is revoked in Settings
// and the call asks again. In English at 1280×800 and in Korean at 800×700.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { answer, lastReply, openPage, repoRoot, screenshot, script, send, withWorld, type FakeReply } from "./harness.ts";

const w = withWorld();

const SERVER = join(process.env.WAYFINDER_MCP_SERVERS ?? join(repoRoot, "tests", "mcpservers", "node_modules", ".bin"), "mcp-server-filesystem");

/** question scripts a turn: every message is a question, which the
 * router answers by its rules, so the answer loop's first call asks for
 * the MCP tool. */
function question(path: string): FakeReply[] {
  return [{ tool_calls: [{ name: "files__read_text_file", args: { path } }] }];
}

async function ask(p: Page, text: string, path: string, more: FakeReply[] = []): Promise<void> {
  await w.settle();
  await script(w.fake, [...question(path), ...more]);
  if (await p.isVisible("button.new")) await p.click("button.new");
  await send(p, text);
}

async function calls(p: Page): Promise<Array<string | null>> {
  await p.click("article[data-role='assistant']:last-of-type details summary");
  return p.$$eval("article[data-role='assistant']:last-of-type .calls li", (els) => els.map((e) => e.getAttribute("data-decision")));
}

test("an MCP tool call asks first: run once, always, revoke in Settings", async () => {
  assert.ok(existsSync(SERVER), `${SERVER} is missing: run make deps-mcp`);
  const folder = mkdtempSync(join(tmpdir(), "wayfinder-e2e-mcp-"));
  const note = join(folder, "meeting.txt");
  writeFileSync(note, "The meeting moved to Thursday at 3 pm.\n");
  try {
    const added = (await w.api("MCPService/Add", [{ name: "files", command: SERVER, args: [folder], url: "", env: {} }])) as Array<{ state: string }>;
    assert.equal(added[0]?.state, "ready");

    const en = await openPage(w.browser, w.app.url, "en-US", { width: 1280, height: 800 });
    await en.click("button[aria-label='Settings']");
    await en.waitForSelector(".mcp li[data-server='files'][data-state='ready']");
    await en.click(".mcp li[data-server='files'] details summary");
    await en.waitForSelector(".mcp li[data-tool='files__read_text_file'] .badge");
    await en.locator(".mcp").scrollIntoViewIfNeeded();
    await screenshot(en, "mcp-1-settings-en-1280");
    await en.click("dialog[open] footer button[type='button']");

    // Run once.
    await ask(en, "What does meeting.txt in my folder say?", note);
    await en.waitForSelector("dialog.tool-approval[open]", { timeout: 30_000 });
    assert.equal(await en.textContent("dialog.tool-approval .tool"), "files__read_text_file");
    assert.equal(await en.textContent("dialog.tool-approval .server"), "files");
    assert.equal(await en.textContent("dialog.tool-approval pre[data-arg='path']"), JSON.stringify(note));
    await screenshot(en, "mcp-2-approval-en-1280");
    await script(w.fake, answer("It says the meeting moved to Thursday."));
    await en.click("dialog.tool-approval button.run-once");
    await en.waitForSelector("dialog.tool-approval", { state: "detached" });
    assert.equal((await lastReply(en)).status, "complete");
    assert.deepEqual(await calls(en), ["run_once"]);
    assert.match((await en.textContent("article[data-role='assistant']:last-of-type .calls")) ?? "", /Thursday at 3 pm/);
    await screenshot(en, "mcp-3-details-en-1280");

    // Always: the next call runs without asking.
    await ask(en, "What does meeting.txt say now?", note);
    await en.waitForSelector("dialog.tool-approval[open]", { timeout: 30_000 });
    await en.click("dialog.tool-approval button.always");
    await script(w.fake, answer("Still Thursday."));
    await en.click("dialog.tool-approval button.confirm-always");
    await en.waitForSelector("dialog.tool-approval", { state: "detached" });
    assert.equal((await lastReply(en)).status, "complete");
    await ask(en, "And once more?", note, answer("Thursday, at 3 pm."));
    assert.equal((await lastReply(en)).status, "complete");
    assert.ok(!(await en.isVisible("dialog.tool-approval")), "a tool allowed for good asked again");
    assert.deepEqual(await calls(en), ["granted"]);

    // Revoke in Settings: it asks again.
    await w.settle();
    await en.click("button[aria-label='Settings']");
    await en.waitForSelector(".grants li[data-tool='files__read_text_file']");
    await en.click(".grants li[data-tool='files__read_text_file'] button.revoke");
    await en.waitForSelector(".grants .none");
    await en.click("dialog[open] footer button[type='button']");
    await ask(en, "Last time: what does it say?", note);
    await en.waitForSelector("dialog.tool-approval[open]", { timeout: 30_000 });
    await script(w.fake, answer("I did not read it."));
    await en.click("dialog.tool-approval button.deny");
    await en.waitForSelector("dialog.tool-approval", { state: "detached" });
    assert.deepEqual(await calls(en), ["deny"]);
    await w.settle();

    // Korean, 800×700: the Settings section and the dialog.
    const ko = await openPage(w.browser, w.app.url, "ko-KR", { width: 800, height: 700 });
    await ko.click("button[aria-label='설정']");
    await ko.waitForSelector(".mcp li[data-server='files']");
    assert.equal(await ko.textContent("#set-mcp-label"), "MCP 서버");
    await ko.locator(".mcp").scrollIntoViewIfNeeded();
    await screenshot(ko, "mcp-4-settings-ko-800");
    await ko.click("dialog[open] footer button[type='button']");
    await ask(ko, "meeting.txt 파일에 뭐라고 쓰여 있어?", note);
    await ko.waitForSelector("dialog.tool-approval[open]", { timeout: 30_000 });
    await screenshot(ko, "mcp-5-approval-ko-800");
    await script(w.fake, answer("목요일 오후 3시로 바뀌었대요."));
    await ko.click("dialog.tool-approval button.run-once");
    await ko.waitForSelector("dialog.tool-approval", { state: "detached" });
    assert.equal((await lastReply(ko)).status, "complete");
    await w.settle();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
