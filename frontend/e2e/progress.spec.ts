// Progress where the person looks, against `wayfinder serve` and a slow
// scripted fake Ollama: the reply says what the model is doing (routing,
// planning, each step of the approved plan with its number and a clock),
// the recommendation cards appear one by one as the steps finish, and the
// guide streams under them; the live trace opens at 800 px too. In English
// and Korean, at 1280×800 and 800×700.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { openPage, screenshot, screenshotSizes, script, send, withWorld } from "./harness.ts";

const w = withWorld();

const ROUTE = { json: { route: "complex", needs_documents: false, refers_to_previous: false, out_of_scope: false, reason: "a task" } };
const PLAN = {
  json: {
    sub_tasks: [
      { id: "s1", title: "Write the script", detail: "A 30-second script" },
      { id: "s2", title: "Edit the video", detail: "Vertical clips with subtitles" },
      { id: "s3", title: "Make a thumbnail", detail: "An eye-catching cover" },
    ],
  },
};
const review = (tool: string) => ({ delay_ms: 1200, json: { sufficient: true, missing: "", tool, why: `${tool} fits this step`, url: `https://${tool.toLowerCase()}.com`, pricing: "free", alternatives: [] } });

const live = "article[data-role='assistant'][data-status='streaming']";

async function progressText(page: Page): Promise<string> {
  return (await page.textContent(`${live} .progress`)) ?? "";
}

async function flow(page: Page, lang: "en" | "ko"): Promise<void> {
  const say = {
    planning: lang === "en" ? "Making a plan: splitting the task into steps…" : "계획을 세우는 중: 작업을 단계로 나누고 있습니다…",
    step2: lang === "en" ? "Step 2 of 3: finding a tool for “Edit the video”…" : "3단계 중 2단계: “Edit the video”에 맞는 도구를 찾는 중…",
    guide: lang === "en" ? "Writing the guide…" : "가이드를 쓰는 중…",
  };
  await script(w.fake, [{ ...ROUTE, delay_ms: 600 }, { ...PLAN, delay_ms: 2500 }]);
  await page.click("button.new");
  await send(page, "Help me make a YouTube Shorts video to promote my café");
  await page.waitForFunction(([sel, text]) => document.querySelector(`${sel} .progress`)?.textContent?.includes(text!), [live, say.planning] as const);
  assert.match(await progressText(page), /\d:\d\d/, "the line has a clock");
  await screenshotSizes(page, `progress-1-planning-${lang}`);
  await page.waitForSelector("dialog.plan[open]", { timeout: 15_000 });

  await script(w.fake, [
    // Each step starts with Wayfinder's own catalog search; the reviews
    // find what they need in it.
    review("ChatGPT"),
    review("Vrew"),
    review("Canva"),
    { chunks: ["# Café Shorts guide\n\n", "1. Script with ChatGPT\n", "2. Edit in Vrew\n", "3. Thumbnail in Canva\n"], chunk_delay_ms: 400 },
    { json: { memories: [] } },
  ]);
  await page.click("dialog.plan button.approve");
  // Step 2 in flight: its line and the first step's card, before the turn ends.
  await page.waitForFunction(([sel, text]) => document.querySelector(`${sel} .progress`)?.textContent?.includes(text!), [live, say.step2] as const, { timeout: 20_000 });
  assert.equal(await page.locator(`${live} .card`).count(), 1, "the first step's card is there while step 2 runs");
  assert.equal(await page.locator(`${live} .card .tool`).first().textContent(), "ChatGPT");
  await screenshotSizes(page, `progress-2-step-${lang}`);
  // The guide streams under the three cards.
  await page.waitForFunction(([sel, text]) => document.querySelector(`${sel} .progress`)?.textContent?.includes(text!) && !!document.querySelector(`${sel} .bubble .md`), [live, say.guide] as const, { timeout: 20_000 });
  assert.equal(await page.locator(`${live} .card`).count(), 3);
  const cardsAbove = await page.$eval(live, (el) => {
    const recs = el.querySelector(".recs")!.getBoundingClientRect();
    const guide = el.querySelector(".bubble .md")!.getBoundingClientRect();
    return recs.bottom <= guide.top;
  });
  assert.ok(cardsAbove, "the guide streams under the cards");
  await screenshotSizes(page, `progress-3-guide-${lang}`);
  await page.waitForSelector("article[data-role='assistant']:last-of-type[data-status='complete']", { timeout: 20_000 });
  assert.equal(await page.locator("article[data-role='assistant']:last-of-type .progress").count(), 0, "no progress line once done");
}

test("the reply shows its progress, cards one by one and the guide under them", async () => {
  const en = await openPage(w.browser, w.app.url, "en-US", { width: 1280, height: 800 });
  await flow(en, "en");
  const ko = await openPage(w.browser, w.app.url, "ko-KR", { width: 1280, height: 800 });
  await flow(ko, "ko");
});

test("the live trace opens and closes at 800 px", async () => {
  const page = await openPage(w.browser, w.app.url, "en-US", { width: 800, height: 700 });
  assert.equal(await page.locator("#trace-panel").count(), 0, "closed by default in a narrow window");
  await page.click("button.trace-toggle");
  const box = await page.locator("#trace-panel").boundingBox();
  assert.ok(box && box.width > 200 && box.x + box.width <= 800 && box.height > 300, `the panel is on screen: ${JSON.stringify(box)}`);
  // It covers the messages, not the message box: Send (Stop while a reply
  // is written) and the box stay in reach beside it.
  const composer = await page.locator("#composer-input").boundingBox();
  assert.ok(composer && box.y + box.height <= composer.y, `the panel ends above the message box: ${JSON.stringify({ box, composer })}`);
  for (const sel of ["#composer-input", "button.send"]) {
    const on = await page.locator(sel).evaluate((el) => {
      const r = el.getBoundingClientRect();
      return el.contains(document.elementFromPoint(r.right - 4, r.top + r.height / 2));
    });
    assert.ok(on, `${sel} is not under the panel`);
  }
  await legible(page);
  await screenshot(page, "trace-800-en");
  await page.click("#trace-panel header button");
  assert.equal(await page.locator("#trace-panel").count(), 0);
});

/**
 * legible: the trace's drawing is not scaled down to its panel (its labels
 * were about 7 px): every label is at least 11 px on the screen, inside its
 * node, and the drawing no wider than the panel.
 */
async function legible(page: Page): Promise<void> {
  const got = await page.$eval("#trace-panel figure", (fig) => {
    const svg = fig.querySelector("svg")!;
    const scale = svg.getScreenCTM()!.a;
    const nodes = [...svg.querySelectorAll("g.node")].map((g) => {
      const box = g.querySelector("rect")!.getBoundingClientRect();
      const text = g.querySelector("text")!;
      const t = text.getBoundingClientRect();
      return {
        id: g.getAttribute("data-node"),
        px: parseFloat(getComputedStyle(text).fontSize) * scale,
        inside: t.left >= box.left - 0.5 && t.right <= box.right + 0.5 && t.top >= box.top - 0.5 && t.bottom <= box.bottom + 0.5,
      };
    });
    return { nodes, scrolls: fig.scrollWidth > fig.clientWidth + 1 };
  });
  assert.ok(got.nodes.length >= 10, `the drawing has the workflow's nodes: ${got.nodes.length}`);
  for (const n of got.nodes) {
    assert.ok(n.px >= 11, `${n.id}: its label is ${n.px.toFixed(1)} px`);
    assert.ok(n.inside, `${n.id}: its label goes out of its node`);
  }
  assert.equal(got.scrolls, false, "the drawing is wider than the panel");
}

test("the trace's drawing is legible beside the chat and over it, in English and Korean", async () => {
  for (const [locale, width, height] of [["en-US", 1280, 800], ["ko-KR", 1280, 800], ["en-US", 800, 700], ["ko-KR", 800, 700]] as const) {
    const page = await openPage(w.browser, w.app.url, locale, { width, height });
    await page.click("button.trace-toggle");
    await page.waitForSelector("#trace-panel g.node");
    await legible(page);
    await screenshot(page, `trace-drawing-${locale.slice(0, 2)}-${width}`);
    await page.context().close();
  }
});
