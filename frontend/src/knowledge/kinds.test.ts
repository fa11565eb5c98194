// A document's kind is named one way wherever it is shown, as a person
// knows it and as the drop zone's list of formats words it: the Knowledge
// list showed "MARKDOWN" (the importer's value in capitals) where a search
// result showed "markdown".
import { afterEach, describe, expect, it, vi } from "vitest";
import { $, $$, cleanup, click, searchKnowledge, start } from "../testing/ui";
import { setLang } from "../i18n/i18n.svelte";
import { kindName } from "./formats";

afterEach(() => {
  cleanup();
  setLang("en");
});

describe("kindName", () => {
  it.each([
    ["markdown", "Markdown", "마크다운"],
    ["pdf", "PDF", "PDF"],
    ["docx", "Word", "Word"],
    ["pptx", "PowerPoint", "PowerPoint"],
    ["xlsx", "Excel", "Excel"],
    ["text", "Text", "텍스트"],
    ["html", "Web page", "웹 페이지"],
    ["hwp", "Hancom (HWP)", "한글(HWP)"],
    ["hwpx", "Hancom (HWPX)", "한글(HWPX)"],
    ["odt", "OpenDocument (ODT)", "OpenDocument(ODT)"],
    ["ods", "OpenDocument (ODS)", "OpenDocument(ODS)"],
    ["catalog", "Tool catalog", "도구 목록"],
    ["someday", "someday", "someday"],
  ])("%s is %s, in Korean %s", (kind, en, ko) => {
    setLang("en");
    expect(kindName(kind)).toBe(en);
    setLang("ko");
    expect(kindName(kind)).toBe(ko);
  });
});

describe("a document's kind on the knowledge screen", () => {
  it.each([
    ["en", "Markdown", "Hancom (HWP)", "shared words and meaning"],
    ["ko", "마크다운", "한글(HWP)", "단어와 의미 모두"],
  ] as const)("is named the same in the list and in search results (%s)", async (language, md, hwp, match) => {
    const { fake } = await start({ settings: { language } });
    fake.docs.push({ id: "d1", title: "notes.md", source: "/data/uploads/notes.md", kind: "markdown", size: 10, pages: 0, chunks: 3, created_at: "", updated_at: "" });
    fake.docs.push({ id: "d2", title: "규정.hwp", source: "/data/uploads/규정.hwp", kind: "hwp", size: 10, pages: 0, chunks: 3, created_at: "", updated_at: "" });
    click($$(".views button")[0]!);
    await vi.waitFor(() => expect($$("table.docs tr[data-doc] .kind")).toHaveLength(2));
    expect($$("table.docs tr[data-doc] .kind").map((k) => k.textContent)).toEqual([md, hwp]);
    // Written as it is named, not put in capitals by the style sheet.
    expect(getComputedStyle($("table.docs .kind")).textTransform).not.toBe("uppercase");

    searchKnowledge("휴가");
    await vi.waitFor(() => expect($$(".hit")).toHaveLength(2));
    const shown = $$(".hit .muted[title]").map((m) => m.textContent);
    expect(shown).toEqual([`${md} · ${match}`, `${hwp} · ${match}`]);
  });
});
