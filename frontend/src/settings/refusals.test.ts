// A Save the backend refuses says why beside each wrong field (not at the
// bottom of the dialog): aria-invalid and aria-describedby on the field,
// the first wrong field focused, the summary counting them, in English and
// Korean, a path shown as text.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { FakeOptions } from "../testing/fakeBackend";
import { $ as el, cleanup, click, fill, openSettings, start, toggle } from "../testing/ui";
import { refusalText } from "./refusals";
import { setLang } from "../i18n/i18n.svelte";

afterEach(cleanup);

const zim = "/home/you/<b>wiki</b>.zim";
const refusal = {
  code: "settings_invalid",
  message: "\"http://[::1\" is not an address like http://127.0.0.1:11434; the Wikipedia file ... cannot be used: no such file; parallel requests must be between 1 and 16 (or 0: one)",
  fields: [
    { field: "ollama_host", code: "host_invalid", args: { host: "http://[::1" } },
    { field: "wikipedia_zim", code: "zim_missing" },
    { field: "parallel_requests", code: "parallel", args: { max: "16" } },
  ],
};

async function refuse(lang: "en" | "ko") {
  const { fake } = await start({ settings: { language: lang } as FakeOptions["settings"] });
  await openSettings();
  fake["SettingsService.Save"] = () => {
    throw new Error(JSON.stringify(refusal));
  };
  fill("#set-host", "http://[::1");
  toggle("#set-wiki", true);
  fill("#set-wiki-zim", zim);
  // Save pressed with Enter in the ZIM field, far below the host.
  (el("#set-wiki-zim") as HTMLInputElement).focus();
  click("dialog[open] button[type='submit']");
  await vi.waitFor(() => expect(document.querySelector("#set-host-refusal")).not.toBeNull(), { timeout: 5000 });
  return fake;
}

describe("a Save refused by the backend", () => {
  it("says each refusal beside its field, focuses the first, and counts them in the summary", async () => {
    await refuse("en");
    const host = el("#set-host");
    expect(el("#set-host-refusal").textContent).toBe("Not an address like http://127.0.0.1:11434: http://[::1");
    expect(host.getAttribute("aria-invalid")).toBe("true");
    expect(host.getAttribute("aria-describedby")!.split(" ")).toEqual(["set-host-status", "set-host-refusal"]);
    const file = el("#set-wiki-zim");
    expect(file.getAttribute("aria-invalid")).toBe("true");
    expect(file.getAttribute("aria-describedby")!.split(" ")).toContain("set-wiki-zim-refusal");
    expect(el("#set-wiki-zim-refusal").textContent).toBe("There is no Wikipedia file at that path. Check the path of the ZIM file: it may have been moved, renamed or deleted.");
    await vi.waitFor(() => expect(document.activeElement).toBe(host), { timeout: 5000 });
    // The summary counts them and lists the one the dialog has no field for.
    const banner = el("dialog[open] [role=alert]");
    expect(banner.querySelector(".title")!.textContent).toBe("Some settings need correcting.");
    expect(banner.querySelector(".detail")!.textContent).toBe("3 values need correcting; each is marked beside its field.");
    expect(banner.querySelector(".elsewhere")!.textContent).toBe("Parallel requests: from 1 to 16 (or 0: one at a time).");
    expect(banner.textContent).not.toContain("must be between");
    // Changing a refused value takes its mark away.
    fill("#set-host", "http://127.0.0.1:11434");
    expect(document.querySelector("#set-host-refusal")).toBeNull();
    expect(el("#set-host").getAttribute("aria-invalid")).toBe("false");
    expect(el("#set-host").getAttribute("aria-describedby")).toBe("set-host-status");
    expect(document.querySelector("#set-wiki-zim-refusal")).not.toBeNull();
  });

  it("says it in Korean, with no English sentence beside a field", async () => {
    await refuse("ko");
    expect(el("#set-host-refusal").textContent).toBe("http://127.0.0.1:11434 같은 주소가 아닙니다: http://[::1");
    expect(el("#set-wiki-zim-refusal").textContent).toMatch(/^그 경로에 위키백과 파일이 없습니다\./);
    const banner = el("dialog[open] [role=alert]");
    expect(banner.querySelector(".detail")!.textContent).toBe("고칠 값이 3개 있습니다. 항목마다 옆에 표시했습니다.");
    expect(banner.textContent).not.toMatch(/must|cannot|between/);
    await vi.waitFor(() => expect(document.activeElement).toBe(el("#set-host")), { timeout: 5000 });
  });

  it("keeps a refusal without fields at the bottom, brought into view", async () => {
    const { fake } = await start();
    await openSettings();
    fake["SettingsService.Save"] = () => {
      throw new Error('{"code":"internal","message":"database is locked"}');
    };
    click("dialog[open] button[type='submit']");
    await vi.waitFor(() => expect(document.querySelector("dialog[open] [role=alert]")).not.toBeNull(), { timeout: 5000 });
    expect(document.querySelector("dialog[open] .fields [aria-invalid='true']")).toBeNull();
  });
});

describe("refusalText", () => {
  afterEach(() => setLang("en"));
  it.each([
    [{ field: "ollama_host", code: "host_empty" }, "Give Ollama's address, like http://127.0.0.1:11434.", "Ollama 주소를 적으세요(예: http://127.0.0.1:11434)."],
    [{ field: "ollama_host", code: "host_many", args: { n: "17", max: "16" } }, "17 addresses; at most 16 can be used.", "주소가 17개입니다. 16개까지 쓸 수 있습니다."],
    [{ field: "max_iterations", code: "range", args: { min: "1", max: "20" } }, "Give a whole number from 1 to 20.", "1에서 20 사이의 정수를 적으세요."],
    [{ field: "language", code: "language", args: { value: "fr" } }, "Not a language Wayfinder speaks: fr", "Wayfinder가 쓰는 언어가 아닙니다: fr"],
    [{ field: "context_tokens", code: "context_or_zero", args: { min: "2048", max: "262144" } }, "Give a size from 2048 to 262144 tokens, or 0 for the model's own.", "2048에서 262144 토큰 사이로 적거나, 모델 기본값이면 0을 적으세요."],
    [{ field: "web_search_url", code: "web_url" }, "Enter an address starting with http:// or https://.", "http:// 또는 https://로 시작하는 주소를 입력하세요."],
    [{ field: "ollama_host", code: "host_invalid" }, "This value was not accepted.", "이 값은 받아들일 수 없습니다."],
    [{ field: "x", code: "something_new" }, "This value was not accepted.", "이 값은 받아들일 수 없습니다."],
  ])("%j", (p, en, ko) => {
    setLang("en");
    expect(refusalText(p)).toBe(en);
    setLang("ko");
    expect(refusalText(p)).toBe(ko);
  });
});
