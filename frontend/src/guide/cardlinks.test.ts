// A card's link from Wayfinder's own catalog (url_from_catalog, set by the
// backend) opens without the unverified-link warning; a link the model
// wrote for a tool not in the catalog keeps the ⚠ and the warning.
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import Recommendations from "./Recommendations.svelte";
import type { Recommendation } from "../api/gotypes.gen";
import { setLang } from "../i18n/i18n.svelte";

let app: ReturnType<typeof mount> | null = null;

afterEach(() => {
  if (app) unmount(app);
  app = null;
  document.body.innerHTML = "";
  vi.restoreAllMocks();
  setLang("en");
});

const recs: Recommendation[] = [
  { subtask_id: "s1", tool: "Canva", why: "thumbnails", url: "https://www.canva.com", url_from_catalog: true, pricing: "free", alternatives: [], sources: [] },
  { subtask_id: "s2", tool: "MadeUpTool", why: "uploads", url: "https://madeup.example/pro", pricing: "free", alternatives: [], sources: [] },
];

function render() {
  const opened: string[] = [];
  const warned: string[] = [];
  vi.spyOn(window, "open").mockImplementation((url) => {
    opened.push(String(url));
    return null;
  });
  app = mount(Recommendations, {
    target: document.body,
    // Nobody wrote or cited either host: only the catalog mark trusts one.
    props: { recommendations: recs, oncite: () => {}, known: new Set<string>(), onlink: (url: string) => warned.push(url) },
  });
  flushSync();
  const links = [...document.querySelectorAll<HTMLButtonElement>(".card button.link")];
  return { opened, warned, links };
}

describe("recommendation card links", () => {
  it("opens the catalog's link without a warning", () => {
    const { opened, warned, links } = render();
    expect(links[0]!.textContent).toContain("↗");
    expect(links[0]!.textContent).not.toContain("⚠");
    expect(links[0]!.classList.contains("unverified")).toBe(false);
    links[0]!.click();
    expect(opened).toEqual(["https://www.canva.com"]);
    expect(warned).toEqual([]);
  });

  it("flags a link the model wrote and warns before opening it", () => {
    const { opened, warned, links } = render();
    expect(links[1]!.textContent).toContain("⚠");
    expect(links[1]!.classList.contains("unverified")).toBe(true);
    expect(links[1]!.title).toContain("https://madeup.example/pro");
    links[1]!.click();
    expect(warned).toEqual(["https://madeup.example/pro"]);
    expect(opened).toEqual([]);
  });
});

// The model copies the catalog's kind of price in English ("free"); a
// Korean card says it in Korean, and a price the model wrote out stays.
describe("recommendation card prices", () => {
  it.each([
    ["ko", "free", "무료"],
    ["ko", " Freemium ", "부분 무료(유료 플랜 있음)"],
    ["ko", "open source", "오픈소스"],
    ["ko", "unknown", "알 수 없음"],
    ["ko", "무료, Plus 월 $20", "무료, Plus 월 $20"],
    ["en", "free", "Free"],
    ["en", "free plan, Pro $9.99/month", "free plan, Pro $9.99/month"],
  ])("%s: %s reads %s", (lang, pricing, want) => {
    setLang(lang as "ko" | "en");
    app = mount(Recommendations, { target: document.body, props: { recommendations: [{ ...recs[0]!, pricing }], oncite: () => {} } });
    flushSync();
    expect(document.querySelector(".card dd")!.textContent).toBe(want);
  });
});
