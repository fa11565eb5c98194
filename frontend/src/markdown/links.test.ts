import { describe, expect, it } from "vitest";
import { hostOf, hostsIn, isKnownLink, knownHosts } from "./links";
import type { Source } from "../api/gotypes.gen";

describe("links", () => {
  it.each([
    ["https://www.Vrew.ai/pricing?x=1", "vrew.ai"],
    ["http://127.0.0.1:8080/a", "127.0.0.1"],
    ["javascript:alert(1)", ""],
    ["mailto:a@b.example", ""],
    ["not a url", ""],
  ])("hostOf(%j) = %j", (url, want) => {
    expect(hostOf(url)).toBe(want);
  });

  it("finds addresses and bare domains the person wrote", () => {
    expect(hostsIn("see https://docs.example.com/x and www.canva.com, or vrew.ai. mail me@corp.example")).toEqual(
      expect.arrayContaining(["docs.example.com", "canva.com", "vrew.ai"]),
    );
    expect(hostsIn("mail me@corp.example")).toEqual([]);
    expect(hostsIn("version 1.2 and e.g. this")).toEqual([]);
    expect(hostsIn("카페 사이트는 bluelantern.kr 이에요")).toEqual(["bluelantern.kr"]);
  });

  const cited: Source[] = [
    { id: "a", title: "Vrew", source: "catalog", url: "https://vrew.ai", snippet: "Pricing: see https://vrew.ai/pricing", score: 1 },
    { id: "b", title: "notes.md", source: "notes.md", snippet: "Our shop is at shop.bluelantern.kr", score: 1 },
  ];

  it.each([
    ["https://vrew.ai/download", true], // the cited source's own address
    ["https://help.vrew.ai/faq", true], // a subdomain of it
    ["https://shop.bluelantern.kr/menu", true], // an address in a cited passage
    ["https://mysite.example/page", true], // the person wrote it
    ["https://evil.example/collect?key=sk-123", false],
    ["https://vrew.ai.evil.example/", false], // a look-alike
    ["http://bluelantern.kr/", false], // only a subdomain was cited
    ["mailto:x@vrew.ai", false],
  ])("isKnownLink(%j) = %s", (url, want) => {
    const known = knownHosts(["Compare with mysite.example please"], cited);
    expect(isKnownLink(url, known)).toBe(want);
  });
});
