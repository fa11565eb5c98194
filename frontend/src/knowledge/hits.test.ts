import { afterEach, describe, expect, it } from "vitest";
import { setLang } from "../i18n/i18n.svelte";
import { matchLabel } from "./hits";

describe("matchLabel", () => {
  afterEach(() => setLang("en"));

  it.each([
    [true, false, "shared words", "단어 일치"],
    [false, true, "similar meaning", "비슷한 의미"],
    [true, true, "shared words and meaning", "단어와 의미 모두"],
  ])("words %s, meaning %s", (words, meaning, en, ko) => {
    setLang("en");
    expect(matchLabel({ words, meaning })).toBe(en);
    setLang("ko");
    expect(matchLabel({ words, meaning })).toBe(ko);
  });
});
