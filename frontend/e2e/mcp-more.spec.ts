// More of MCP against `wayfinder serve`, the scripted fake Ollama and real
// servers over stdio: a picture from the reference "everything" server's
// get-tiny-image tool shows under the reply (the backend gives it as a
// sniffed PNG); and Stop while a call waits on a server that never
// answers (tests/mcpservers/hang.mjs) ends the turn at once — long before
// the call's 60 s limit — and the call is offered again, in the
// conversation, under a line saying the person stopped it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { answer, openPage, repoRoot, screenshot, script, send, withWorld } from "./harness.ts";

const w = withWorld();

const BIN = process.env.WAYFINDER_MCP_SERVERS ?? join(repoRoot, "tests", "mcpservers", "node_modules", ".bin");
const EVERYTHING = join(BIN, "mcp-server-everything");
const HANG = join(repoRoot, "tests", "mcpservers", "hang.mjs");

async function askTool(p: Page, text: string, tool: string): Promise<void> {
  await w.settle();
  await script(w.fake, [{ tool_calls: [{ name: tool, args: {} }] }]);
  if (await p.isVisible("button.new")) await p.click("button.new");
  await send(p, text);
  await p.waitForSelector("dialog.tool-approval[open]", { timeout: 30_000 });
  assert.equal(await p.textContent("dialog.tool-approval .tool"), tool);
}

test("a picture an MCP tool returns shows under the reply", async () => {
  assert.ok(existsSync(EVERYTHING), `${EVERYTHING} is missing: run make deps-mcp`);
  const added = (await w.api("MCPService/Add", [{ name: "every", command: EVERYTHING, args: ["stdio"], url: "", env: {} }])) as Array<{ state: string }>;
  assert.equal(added[0]?.state, "ready");
  for (const [locale, width, height, label] of [["en-US", 1280, 800, "Files from the tools"], ["ko-KR", 800, 700, "도구가 보낸 파일"]] as const) {
    const p = await openPage(w.browser, w.app.url, locale, { width, height });
    await askTool(p, locale === "en-US" ? "Can you show a tiny picture?" : "작은 그림 보여 줄 수 있나요?", "every__get-tiny-image");
    await script(w.fake, answer(locale === "en-US" ? "Here is the tiny picture." : "작은 그림을 가져왔어요."));
    await p.click("dialog.tool-approval button.run-once");
    await p.waitForSelector("dialog.tool-approval", { state: "detached" });
    const img = await p.waitForSelector("article[data-role='assistant']:last-of-type .tool-files img.thumb", { timeout: 30_000 });
    assert.match((await img.getAttribute("src")) ?? "", /^data:image\/png;base64,/);
    await p.waitForFunction(() => {
      const i = document.querySelector("article[data-role='assistant']:last-of-type .tool-files img.thumb") as HTMLImageElement | null;
      return !!i && i.complete && i.naturalWidth > 0;
    });
    assert.equal(await p.textContent("article[data-role='assistant']:last-of-type .tool-files .sub"), label);
    await p.locator("article[data-role='assistant']:last-of-type .tool-files").scrollIntoViewIfNeeded();
    await screenshot(p, `mcp-attachment-${locale.slice(0, 2)}-${width}`);
    await w.settle();
    await p.context().close();
  }
});

test("Stop ends a turn whose MCP call hangs, and the call is offered again saying so", async () => {
  assert.ok(existsSync(HANG), `${HANG} is missing`);
  const added = (await w.api("MCPService/Add", [{ name: "slow", command: "node", args: [HANG], url: "", env: {} }])) as Array<{ name: string; state: string }>;
  assert.equal(added.find((s) => s.name === "slow")?.state, "ready");
  const p = await openPage(w.browser, w.app.url, "en-US", { width: 1280, height: 800 });
  await askTool(p, "What does the slow server say?", "slow__wait");
  await p.click("dialog.tool-approval button.run-once");
  await p.waitForSelector("dialog.tool-approval", { state: "detached" });
  // The call is in flight: the progress line names the tool.
  await p.waitForSelector(".progress .text:has-text('Using slow__wait')", { timeout: 30_000 });
  await screenshot(p, "mcp-hang-1-waiting-en-1280");
  await p.click("button.stop");
  // Offered again, well within the call's 60 s limit (the wait below is 20 s),
  // in the conversation under one line saying the person stopped it, with
  // no dialog over that line repeating it.
  const offered = "article[data-role='assistant'][data-status='awaiting_approval']";
  await p.waitForSelector(`${offered} .tool-card button.review`, { timeout: 20_000 });
  assert.equal(
    ((await p.textContent(`${offered} .bubble`)) ?? "").trim(),
    "You stopped this slow__wait call before it finished; it may have done part of its work. Run it again, or deny it.",
  );
  assert.equal(await p.$("dialog.tool-approval"), null, "the dialog opened over the line");
  await screenshot(p, "mcp-hang-2-stopped-en-1280");
  await p.click(`${offered} .tool-card button.review`);
  await p.waitForSelector("dialog.tool-approval[open]");
  assert.equal(await p.$("dialog.tool-approval .again"), null, "the dialog says it again");
  await script(w.fake, answer("I could not get an answer from the slow server."));
  await p.click("dialog.tool-approval button.deny");
  await p.waitForSelector("dialog.tool-approval", { state: "detached" });
  await p.waitForFunction(() => document.querySelector("article[data-role='assistant']:last-of-type")?.getAttribute("data-status") === "complete", null, { timeout: 30_000 });
  await w.settle();
});
