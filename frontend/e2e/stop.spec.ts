// Stop ends a streaming reply, keeps what was written, and leaves the chat
// usable.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lastReply, openPage, screenshot, script, send, withWorld } from "./harness.ts";

const w = withWorld("slow");

test("Escape stops a streaming reply and keeps the partial text", async () => {
  const page = await openPage(w.browser, w.app.url);
  await send(page, "Tell me a long story");
  await page.waitForFunction(() => {
    const a = document.querySelector("article[data-role='assistant'][data-status='streaming'] .md");
    return (a?.textContent?.length ?? 0) > 20;
  }, null, { timeout: 20_000 });
  await page.keyboard.press("Escape");
  const reply = await lastReply(page);
  assert.equal(reply.status, "interrupted");
  assert.match(reply.text, /This reply streams slowly/);
  assert.ok(reply.text.length < 1200, "it stopped before the end");
  await screenshot(page, "stopped");

  // The box works again after a stop.
  await page.fill("#composer-input", "again");
  assert.equal(await page.isEnabled("button.send"), true);
});

test("Escape after a click in the live trace hides the trace only; the reply runs on, and a second Escape stops it", async () => {
  for (const [locale, width, height] of [["en-US", 1280, 800], ["ko-KR", 800, 700]] as const) {
    const page = await openPage(w.browser, w.app.url, locale, { width, height });
    await page.click("button.new");
    await send(page, "Tell me a long story");
    await page.waitForSelector("article[data-role='assistant'][data-status='streaming']", { timeout: 20_000 });
    // Beside the chat at 1280 px it opens by itself; at 800 px when asked.
    if (!(await page.$("#trace-panel"))) await page.click("button.trace-toggle");
    // A click on its title, text no Tab stops at, as a person reading it does.
    await page.click("#trace-panel h2");
    await page.keyboard.press("Escape");
    await page.waitForSelector("#trace-panel", { state: "detached" });
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains("trace-toggle")), true, "the focus is on the trace button");
    assert.equal(await page.getAttribute("article[data-role='assistant']:last-of-type", "data-status"), "streaming", "Escape in the trace stopped the reply");
    await screenshot(page, `trace-escape-${locale.slice(0, 2)}-${width}`);
    // The trace hidden, Escape is the window's again: it stops the reply.
    await page.keyboard.press("Escape");
    assert.equal((await lastReply(page)).status, "interrupted");
    await page.context().close();
  }
});

test("Stop while an approved plan runs says once what was done and what was not; approving it again runs only the rest", async () => {
  const review = (tool: string) => ({ json: { sufficient: true, missing: "", tool, why: `${tool} fits this step`, url: "https://example.com", pricing: "free", alternatives: [] } });
  for (const [locale, width, height] of [["en-US", 1280, 800], ["ko-KR", 800, 700]] as const) {
    await script(w.fake, [
      { json: { route: "complex", needs_documents: false, refers_to_previous: false, out_of_scope: false, reason: "a task" } },
      { json: { sub_tasks: [
        { id: "s1", title: "Write the script", detail: "A 30-second script" },
        { id: "s2", title: "Edit the video", detail: "Vertical clips with subtitles" },
        { id: "s3", title: "Make a thumbnail", detail: "An eye-catching cover" },
      ] } },
    ]);
    const page = await openPage(w.browser, w.app.url, locale, { width, height });
    await page.click("button.new");
    await send(page, "Help me make a YouTube Shorts video to promote my café");
    await page.waitForSelector("dialog.plan[open]");
    // The first step is found; the second waits on a model that does not answer.
    await script(w.fake, [review("ChatGPT"), { ...review("Vrew"), delay_ms: 120_000 }]);
    await page.click("dialog.plan button.approve");
    await page.waitForSelector("dialog.plan", { state: "detached" });
    await page.waitForSelector("article[data-role='assistant']:last-of-type .card", { timeout: 30_000 });
    await page.click("button.stop");
    // Offered again in the conversation: the card found stays, one line
    // says what was done and what was not, and no dialog repeats it.
    const offered = "article[data-role='assistant'][data-status='awaiting_approval']";
    await page.waitForSelector(`${offered} .plan-card button.review`, { timeout: 20_000 });
    const line = (await page.textContent(`${offered} .bubble`)) ?? "";
    assert.equal(
      line.trim(),
      locale === "en-US"
        ? "You stopped the work on the plan. Tools found (above) for: “Write the script”. Not done: “Edit the video”, “Make a thumbnail”, and the guide. Here is the plan as you approved it — approve it again to go on with the steps left, keeping the tools found; a step whose title or description you change is looked at again."
        : "계획 작업을 중지하셨어요. 도구를 찾은 단계(위에 있어요): “Write the script”. 하지 못한 단계: “Edit the video”, “Make a thumbnail”. 안내서도 아직 쓰지 않았어요. 승인한 계획 그대로 여기 있어요 — 다시 승인하면 찾은 도구는 그대로 두고 남은 단계부터 이어서 진행해요. 제목이나 설명을 고친 단계는 도구를 다시 찾아요.",
    );
    assert.deepEqual(await page.$$eval(`${offered} .card .tool`, (els) => els.map((e) => e.textContent)), ["ChatGPT"]);
    assert.equal(await page.$("dialog.plan"), null, "the dialog opened over the line");
    assert.equal(await page.getAttribute("article .plan-card[data-decided='approve'] [data-tag]", "data-tag"), "plan.stoppedTag");
    await page.locator(`${offered} .plan-card`).scrollIntoViewIfNeeded();
    await screenshot(page, `plan-stopped-${locale.slice(0, 2)}-${width}`);
    await page.click(`${offered} .plan-card button.review`);
    await page.waitForSelector("dialog.plan[open]");
    assert.equal(await page.$("dialog.plan [role=status]"), null, "the dialog says it again");

    // Approving it again keeps the first step's tool: the model is asked
    // about the other two only (a call about the first would take "Vrew"
    // and leave the guide's reply to the third), then writes the guide.
    await script(w.fake, [
      review("Vrew"),
      review("Canva"),
      { chunks: ["# Café Shorts guide\n\n", "1. Script with ChatGPT\n", "2. Edit in Vrew\n", "3. Thumbnail in Canva\n"] },
      { json: { memories: [] } },
    ]);
    await page.click("dialog.plan button.approve");
    await page.waitForSelector("dialog.plan", { state: "detached" });
    const done = "article[data-role='assistant'][data-status='complete']:last-of-type";
    await page.waitForSelector(`${done} .card`, { timeout: 60_000 });
    assert.deepEqual(await page.$$eval(`${done} .card .tool`, (els) => els.map((e) => e.textContent)), ["ChatGPT", "Vrew", "Canva"]);
    assert.match((await page.textContent(`${done} .bubble`)) ?? "", /Thumbnail in Canva/);
    await page.waitForFunction(() => [...document.querySelectorAll("article .plan-card [data-tag]")].some((e) => e.textContent === "done" || e.textContent === "완료"), undefined, { timeout: 30_000 });
    await page.locator(`${done} .card >> nth=0`).scrollIntoViewIfNeeded();
    await screenshot(page, `plan-resumed-${locale.slice(0, 2)}-${width}`);
    await page.context().close();
  }
});
