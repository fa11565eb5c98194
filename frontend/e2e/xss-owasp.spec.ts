// OWASP-style filter-evasion payloads in a model reply (streamed, then
// stored and reloaded) never execute: no dialog, no handler attribute, no
// script, frame or javascript:/data: link in the page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { inertDOM, lastReply, openPage, screenshot, script, send, waitReady, watchDialogs, withWorld } from "./harness.ts";

// From the OWASP XSS Filter Evasion Cheat Sheet, in Markdown and HTML.
const PAYLOADS = [
  "<img src=x onerror=alert('img')>",
  "<IMG SRC=\"javascript:alert('img-js');\">",
  "<IMG SRC=JaVaScRiPt:alert('case')>",
  "<IMG SRC=`javascript:alert(\"grave\")`>",
  "<IMG \"\"\"><SCRIPT>alert(\"quotes\")</SCRIPT>\">",
  "<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>",
  "<IMG SRC=\"jav&#x09;ascript:alert('tab');\">",
  "<svg/onload=alert('svg')>",
  "<BODY ONLOAD=alert('body')>",
  "<iframe src=\"javascript:alert('iframe')\"></iframe>",
  "<object data=\"javascript:alert('object')\"></object>",
  "<a href=\"javascript:alert('a')\">link</a>",
  "<a href=\" &#14;  javascript:alert('spaced')\">spaced</a>",
  "[md link](javascript:alert('md'))",
  "[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgnZGF0YScpPC9zY3JpcHQ+)",
  "![img](javascript:alert('mdimg'))",
  "<div style=\"background-image: url(javascript:alert('css'))\">css</div>",
  "<math><mtext><table><mglyph><style><img src=x onerror=alert('mxss')>",
  "<form action=\"javascript:alert('form')\"><button>go</button></form>",
  "<details open ontoggle=alert('details')>",
  "<input autofocus onfocus=alert('focus')>",
  "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert('meta')\">",
  "```html\n<script>alert('in code')</script>\n```",
].join("\n\n");

const w = withWorld();

test("OWASP payloads in a model reply stay inert, live and after reload", async () => {
  const page = await openPage(w.browser, w.app.url);
  const dialogs = watchDialogs(page);
  await script(w.fake, [
    { json: { route: "simple", needs_documents: false, refers_to_previous: false, out_of_scope: false, reason: "a question" } },
    { text: `Here you go:\n\n${PAYLOADS}\n\nDone.`, chunk_delay_ms: 5 },
  ]);
  await send(page, "Hi there, show me some HTML tricks please");
  const reply = await lastReply(page);
  assert.equal(reply.status, "complete");
  assert.match(reply.text, /Here you go/);
  await page.waitForTimeout(600);
  assert.deepEqual(dialogs, [], "no payload ran while streaming");
  let dom = await inertDOM(page);
  assert.deepEqual(dom, { handlers: [], scripts: 0, jsLinks: 0, iframes: 0 });
  // Links that survive lead nowhere dangerous.
  const hrefs = await page.$$eval(".md a[href]", (as) => as.map((a) => a.getAttribute("href") ?? ""));
  for (const h of hrefs) assert.match(h, /^(https?:|mailto:|#)/, h);
  await screenshot(page, "xss-owasp");

  await page.reload();
  await waitReady(page);
  await lastReply(page);
  await page.waitForTimeout(600);
  assert.deepEqual(dialogs, [], "no payload ran after reload");
  dom = await inertDOM(page);
  assert.deepEqual(dom, { handlers: [], scripts: 0, jsLinks: 0, iframes: 0 });
  // Copy/export buttons work on the text without running it.
  await page.click("article[data-role='assistant']:last-of-type button.copy-msg");
  assert.deepEqual(dialogs, []);
});
