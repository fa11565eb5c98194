// The errors the backend words in English only, in the person's language:
// each code's title, and its hint when the catalogs have one.
import { afterEach, describe, expect, it } from "vitest";
import { setLang } from "../i18n/i18n.svelte";
import { errorText } from "./errors";
import type { UiErrorCode } from "../api/errors";

afterEach(() => setLang("en"));

const english = { message: "An English sentence from the backend.", hint: "An English hint from the backend." };

describe("errorText in Korean", () => {
  // Codes whose message only repeats the title: title and hint in Korean,
  // nothing English left.
  it.each([
    ["plan_waiting", "이 대화에서 계획이 결정을 기다리고 있습니다.", "먼저 계획을 승인하거나"],
    ["tool_call_waiting", "이 대화에서 도구 호출이 승인을 기다리고 있습니다.", "먼저 한 번 실행하거나"],
    ["busy", "이 대화에서 아직 답하는 중입니다.", "답이 끝날 때까지"],
    ["empty_message", "메시지가 비어 있습니다.", "질문이나 할 일을"],
    ["feedback_empty", "계획에서 무엇을 바꿀지 적어 주세요.", "바꿀 점을 적은 뒤"],
    ["no_plan_waiting", "여기에는 결정을 기다리는 계획이 없습니다.", "대신 새 메시지를"],
    ["nothing_to_retry", "다시 보낼 메시지가 없습니다.", "대신 메시지를"],
    ["session_not_found", "그 대화는 더 이상 없습니다.", "새 대화를 시작하세요."],
    ["title_empty", "제목이 비어 있습니다.", "대화 제목을"],
    ["stream_dropped", "응답이 끝나기 전에 끊겼습니다.", "Ollama가 아직 실행 중인지"],
    ["import_not_export", "Wayfinder 대화 내보내기 파일이 아니어서 아무것도 가져오지 않았습니다.", "JSON 파일을 가져오세요"],
    ["upload_damaged", "파일이 손상된 채로 도착했습니다.", "다시 시도하세요."],
  ])("%s", (code, title, hint) => {
    setLang("ko");
    const got = errorText({ code: code as UiErrorCode, ...english });
    expect(got.title).toBe(title);
    expect(got.hint).toContain(hint);
    expect(got.detail).toBe("");
    expect(JSON.stringify(got)).not.toContain("English");
  });

  // Codes whose message names a host, a model or a place: the advice is
  // Korean, the particulars stay as the detail.
  it.each([
    ["ollama_unreachable", "Ollama를 실행하세요"],
    ["model_no_tools", "'도구' 표시가 있는 채팅 모델"],
    ["model_out_of_memory", "더 작은 채팅 모델"],
    ["timeout", "모델을 아직 불러오는 중"],
    ["bad_model_output", "더 큰 모델이"],
    ["ollama_error", "Ollama 서버 로그"],
    ["import_invalid", "대화를 다시 내보내거나"],
    ["upload_too_large", "데스크톱 창에서 가져오거나"],
  ])("%s keeps its particulars", (code, hint) => {
    setLang("ko");
    const got = errorText({ code: code as UiErrorCode, ...english });
    expect(got.hint).toContain(hint);
    expect(got.hint).not.toContain("English");
    expect(got.detail).toBe(english.message);
    expect(got.title).toMatch(/[가-힣]/);
  });

  it("says the same in English, from the catalog", () => {
    setLang("en");
    expect(errorText({ code: "ollama_unreachable", ...english }).hint).toContain("Start Ollama (run `ollama serve`");
    expect(errorText({ code: "tool_call_waiting", ...english })).toEqual({
      title: "A tool call in this conversation is waiting for your approval.",
      detail: "",
      hint: "Run it once, always allow the tool, or deny it first; then send your message.",
      cause: "",
    });
  });

  it("keeps the backend's words when it sends no particulars to word", () => {
    setLang("ko");
    expect(errorText({ code: "model_missing", message: "The model \"x\" is not installed in Ollama.", hint: "ollama pull x" })).toEqual({
      title: "모델이 설치되어 있지 않습니다.",
      detail: "The model \"x\" is not installed in Ollama.",
      hint: "ollama pull x",
      cause: "",
    });
  });
});

// The backend sends an error's particulars in parts (ErrorInfo.args): the
// sentence around them is the catalogs', in the person's language, and
// Ollama's raw words stay only as the muted cause.
describe("errorText from the backend's parts", () => {
  const hangul = /[가-힣]/;
  it.each([
    ["model_missing", { model: "qwen3:4b" }, "이 컴퓨터의 Ollama에 qwen3:4b 모델이 없습니다.", "`ollama pull qwen3:4b`"],
    ["pull_failed", { model: "qwen3:4b", reason: "pull model manifest: file does not exist" }, "", "`ollama pull qwen3:4b`"],
    ["model_no_tools", { model: "gemma3:1b" }, "gemma3:1b 모델은 도구를 호출할 수 없습니다.", "'도구' 표시가 있는 채팅 모델"],
    ["model_out_of_memory", { model: "qwen3:32b" }, "qwen3:32b 모델을 실행하기에", "더 작은 채팅 모델"],
    ["timeout", { model: "qwen3:4b" }, "(모델 qwen3:4b)", "모델을 아직 불러오는 중"],
    ["bad_model_output", { model: "qwen3:4b" }, "qwen3:4b 모델이 Wayfinder가 읽을 수 없는", "더 큰 모델이"],
    ["ollama_unreachable", { host: "http://127.0.0.1:11434" }, "http://127.0.0.1:11434의 Ollama에", "Ollama를 실행하세요"],
  ])("%s in Korean, no English sentence left", (code, args, detail, hint) => {
    setLang("ko");
    const got = errorText({ code: code as UiErrorCode, ...english, args });
    expect(got.title).toMatch(hangul);
    expect(got.detail).toContain(detail);
    expect(got.hint).toContain(hint);
    expect(JSON.stringify(got)).not.toContain("English");
    expect(got.cause).toBe((args as Record<string, string>).reason ?? "");
  });

  it("words them in English too, and keeps Ollama's own words as the cause", () => {
    setLang("en");
    expect(errorText({ code: "pull_failed", ...english, args: { model: "qwen3:4b", reason: "pull model manifest: file does not exist" } })).toEqual({
      title: "The model could not be downloaded.",
      detail: "",
      hint: "Check the internet connection and the model's name (see https://ollama.com/library), then try again, or run `ollama pull qwen3:4b` in a terminal.",
      cause: "pull model manifest: file does not exist",
    });
  });

  it("shows a cause alone when the title says the rest", () => {
    setLang("ko");
    const got = errorText({ code: "ollama_error", message: "Ollama reported an error: boom", args: { reason: "boom" } });
    expect(got).toEqual({ title: "Ollama에서 오류가 났습니다.", detail: "", hint: expect.stringContaining("Ollama 서버 로그"), cause: "boom" });
  });

  it("never leaves a blank unfilled: a missing particular keeps the backend's words", () => {
    setLang("ko");
    const got = errorText({ code: "pull_failed", message: "Downloading the model \"x\" failed: offline", hint: "ollama pull x", args: { reason: "offline" } });
    expect(got.detail).toBe("Downloading the model \"x\" failed: offline");
    expect(got.hint).toBe("ollama pull x");
    expect(JSON.stringify(got)).not.toMatch(/\{model\}/);
  });

  it("takes a particular as data: braces in it fill nothing", () => {
    setLang("en");
    const got = errorText({ code: "model_missing", message: "m", args: { model: "{host}" } });
    expect(got.detail).toBe("{host} is not in Ollama on this computer.");
  });
});
