// A download's progress line words Ollama's stages; none of its English
// status words reaches a Korean line.
import { afterEach, describe, expect, it } from "vitest";
import { setLang } from "../i18n/i18n.svelte";
import { pullStage } from "./pullStatus";

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
