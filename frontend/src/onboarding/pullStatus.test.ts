// A download's progress line words Ollama's stages; none of its English
// status words reaches a Korean line.
import { afterEach, describe, expect, it } from "vitest";
import { setLang } from "../i18n/i18n.svelte";
import { pullHost, pullShare, pullStage } from "./pullStatus";

afterEach(() => setLang("en"));

describe("pullStage", () => {
  it.each([
    ["pulling manifest", "Reading the model's list of files…", "모델의 파일 목록을 읽는 중…"],
    ["pulling 6a0746a1ec1a", "Downloading…", "내려받는 중…"],
    ["verifying sha256 digest", "Checking the download…", "받은 파일을 확인하는 중…"],
    ["writing manifest", "Saving the model…", "모델을 저장하는 중…"],
    ["removing any unused layers", "Removing files no longer needed…", "필요 없는 파일을 지우는 중…"],
    ["success", "Downloaded.", "다 받았습니다."],
    ["error", "The download failed.", "내려받지 못했습니다."],
    ["cancelled", "Download cancelled.", "내려받기를 취소했습니다."],
    ["something new from Ollama", "Downloading…", "내려받는 중…"],
    ["", "Downloading…", "내려받는 중…"],
  ])("%j", (status, en, ko) => {
    setLang("en");
    expect(pullStage(status)).toBe(en);
    setLang("ko");
    expect(pullStage(status)).toBe(ko);
  });
});

const base = { model: "qwen3:4b", status: "pulling 6a0746a1ec1a", done: false };

describe("pullShare", () => {
  it.each([
    ["one host, half", { completed: 50, total: 100 }, 50],
    ["one host, no figure yet", { completed: 0, total: 0 }, null],
    ["host 1 of 2, half", { completed: 50, total: 100, host: "http://a:11434", host_index: 1, hosts: 2 }, 25],
    ["host 2 of 2, starting", { completed: 0, total: 0, host: "http://b:11434", host_index: 2, hosts: 2 }, 50],
    ["host 2 of 3, half", { completed: 5, total: 10, host: "http://b:11434", host_index: 2, hosts: 3 }, 50],
    ["host 3 of 3, done", { completed: 10, total: 10, host: "http://c:11434", host_index: 3, hosts: 3 }, 100],
  ])("%s", (_, p, want) => {
    expect(pullShare({ ...base, ...p })).toBe(want);
  });
});

describe("pullHost", () => {
  it("names the host of several, in English and Korean, and nothing with one", () => {
    const p = { ...base, completed: 0, total: 0, host: "http://gpu2:11434", host_index: 2, hosts: 3 };
    setLang("en");
    expect(pullHost(p)).toBe("Host 2 of 3: http://gpu2:11434");
    setLang("ko");
    expect(pullHost(p)).toBe("호스트 3곳 중 2번째: http://gpu2:11434");
    expect(pullHost({ ...base, completed: 0, total: 0 })).toBe("");
  });
});
