// search_wikipedia in Settings (issue 19.5): on/off, the ZIM file (typed,
// or chosen with the desktop's dialog) and online search, checked in place
// in English and Korean before the backend checks the file itself.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Settings } from "../api/gotypes.gen";
import type { FakeOptions } from "../testing/fakeBackend";
import { $ as el, cleanup, click, fill, openSettings, start, stop, toggle } from "../testing/ui";
import { checkSettings, isAbsolutePath } from "./validate";
import { errorText } from "../lib/errors";
import { setLang } from "../i18n/i18n.svelte";

afterEach(cleanup);

function submit(): HTMLButtonElement {
  return document.querySelector("dialog[open] button[type='submit']") as HTMLButtonElement;
}

describe("checkSettings: Wikipedia", () => {
  const base = { ollama_host: "http://127.0.0.1:11434", max_iterations: 5, web_search_enabled: false, web_search_url: "" } as Settings;
  it.each([
    ["off", { wikipedia_enabled: false, wikipedia_zim: "", wikipedia_online: false }, []],
    ["on with nothing", { wikipedia_enabled: true, wikipedia_zim: " ", wikipedia_online: false }, ["wiki_source"]],
    ["online only", { wikipedia_enabled: true, wikipedia_zim: "", wikipedia_online: true }, []],
    ["a file", { wikipedia_enabled: true, wikipedia_zim: "/home/me/위키백과.zim", wikipedia_online: false }, []],
    ["a relative file", { wikipedia_enabled: true, wikipedia_zim: "wiki.zim", wikipedia_online: true }, ["wiki_zim"]],
  ] as const)("%s", (_, wiki, want) => {
    expect(checkSettings({ ...base, ...wiki })).toEqual(want);
  });
  it.each([["/a.zim", true], ["C:\\wiki\\a.zim", true], ["\\\\server\\a.zim", true], ["a.zim", false], ["~/a.zim", false]] as const)(
    "isAbsolutePath(%s)",
    (p, want) => expect(isAbsolutePath(p)).toBe(want),
  );
});

describe("Wikipedia in Settings", () => {
  it("is off by default; on, it needs a file or online search, then saves both", async () => {
    const { fake } = await start();
    await openSettings();
    expect((el("#set-wiki") as HTMLInputElement).checked).toBe(false);
    expect(document.querySelector("#set-wiki-zim")).toBeNull();
    toggle("#set-wiki", true);
    expect(el("#set-wiki-zim-help").textContent).toBe("Choose a ZIM file, or allow online search below.");
    expect(submit().disabled).toBe(true);
    fill("#set-wiki-zim", "wikipedia.zim");
    expect(el("#set-wiki-zim-help").textContent).toContain("full path");
    fill("#set-wiki-zim", "  /home/you/wikipedia_ko_all.zim ");
    expect(submit().disabled).toBe(false);
    toggle("#set-wiki-online", true);
    submit().click();
    await vi.waitFor(() => expect(fake.settings.wikipedia_enabled).toBe(true), { timeout: 5000 });
    expect(fake.settings.wikipedia_zim).toBe("/home/you/wikipedia_ko_all.zim");
    expect(fake.settings.wikipedia_online).toBe(true);
  });

  it("says it in Korean", async () => {
    await start({ settings: { language: "ko" } as FakeOptions["settings"] });
    await openSettings();
    expect(el("dialog[open]").textContent).toContain("어시스턴트가 위키백과에서 찾아보도록 허용");
    // Words a Korean person reads, not a tool's code name or "per search"
    // for a count that is per step.
    expect(el("dialog[open]").textContent).toContain("위키백과 검색 도구는 오프라인 위키백과");
    expect(el("label[for='set-iter']").textContent).toBe("단계별 최대 검색 횟수");
    expect(el("dialog[open]").textContent).not.toMatch(/search_wikipedia|read_file|검색당/);
    toggle("#set-wiki", true);
    expect(el("#set-wiki-zim-help").textContent).toBe("ZIM 파일을 고르거나 아래에서 온라인 검색을 허용하세요.");
    fill("#set-wiki-zim", "위키.zim");
    expect(el("#set-wiki-zim-help").textContent).toContain("전체 경로");
  });

  it("offers the file dialog in the desktop window only", async () => {
    await start({ mode: "desktop" });
    await openSettings();
    toggle("#set-wiki", true);
    click("button.choose-zim");
    await vi.waitFor(() => expect((el("#set-wiki-zim") as HTMLInputElement).value).toBe("/home/you/wikipedia_ko_all.zim"), { timeout: 5000 });
    stop();
    await start();
    await openSettings();
    toggle("#set-wiki", true);
    expect(document.querySelector("button.choose-zim")).toBeNull();
  });
});

describe("a ZIM file the backend refuses", () => {
  afterEach(() => setLang("en"));
  it("brings the refusal into view, since Save may be pressed with Enter far above it", async () => {
    const { fake } = await start();
    await openSettings();
    fake["SettingsService.Save"] = () => {
      throw new Error('{"code":"zim_not_zim","message":"the Wikipedia file /x.zim cannot be used: not a ZIM file"}');
    };
    const shown: Element[] = [];
    const spy = vi.spyOn(Element.prototype, "scrollIntoView").mockImplementation(function (this: Element) {
      shown.push(this);
    });
    try {
      toggle("#set-wiki", true);
      fill("#set-wiki-zim", "/home/you/notes.txt");
      submit().click();
      await vi.waitFor(() => expect(el("dialog[open] [role=alert]").textContent).toContain("That file is not a ZIM file."), { timeout: 5000 });
      await vi.waitFor(() => expect(shown.some((e) => e.contains(el("dialog[open] [role=alert]")))).toBe(true), { timeout: 5000 });
    } finally {
      spy.mockRestore();
    }
  });

  it.each([
    ["zim_relative", "The Wikipedia file must be named with its full path.", "위키백과 파일은 전체 경로로 지정해야 합니다."],
    ["zim_missing", "There is no Wikipedia file at that path.", "그 경로에 위키백과 파일이 없습니다."],
    ["zim_not_zim", "That file is not a ZIM file.", "그 파일은 ZIM 파일이 아닙니다."],
    ["zim_damaged", "The ZIM file is damaged.", "ZIM 파일이 손상되었습니다."],
    ["zim_unreadable", "Wayfinder cannot read that ZIM file.", "Wayfinder가 그 ZIM 파일을 읽을 수 없습니다."],
  ] as const)("%s is said in English and Korean, with what to do", (code, en, ko) => {
    const info = { code, message: "the Wikipedia file /x.zim cannot be used: not a ZIM file" };
    const inEn = errorText(info);
    expect(inEn.title).toBe(en);
    expect(inEn.hint).not.toBe("");
    expect(inEn.detail).toBe(""); // the backend's English words are not shown
    setLang("ko");
    const inKo = errorText(info);
    expect(inKo.title).toBe(ko);
    expect(inKo.hint).toMatch(/[가-힣]/);
  });
});
