import { afterEach, describe, expect, it } from "vitest";
import { setLang } from "../i18n/i18n.svelte";
import { filesTitle, namedByFiles, sessionTitle } from "./title";

afterEach(() => setLang("en"));

describe("a conversation's name", () => {
  it.each([
    ["en", [], ""],
    ["en", ["leave.pdf"], "leave.pdf"],
    ["en", ["leave.pdf", "회의록.md"], "leave.pdf and 회의록.md"],
    ["en", ["a.md", "b.md", "c.md"], "a.md and 2 more"],
    ["ko", ["leave.pdf", "회의록.md"], "leave.pdf, 회의록.md"],
    ["ko", ["a.md", "b.md", "c.md", "d.md"], "a.md 외 3개"],
  ])("%s: files %j → %s", (lang, files, want) => {
    setLang(lang as "en" | "ko");
    expect(filesTitle(files)).toBe(want);
  });

  it("is its title, else its files', else New conversation", () => {
    expect(sessionTitle({ title: "Leave policy", files: ["x.md"] })).toBe("Leave policy");
    expect(sessionTitle({ title: "", files: ["x.md"] })).toBe("x.md");
    expect(sessionTitle({ title: "" })).toBe("New conversation");
    expect(sessionTitle(null)).toBe("New conversation");
    setLang("ko");
    expect(sessionTitle({ title: "", files: [] })).toBe("새 대화");
    expect(namedByFiles({ title: "", files: ["x.md"] })).toBe(true);
    expect(namedByFiles({ title: "t", files: ["x.md"] })).toBe(false);
  });
});
