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
    });
  });

  it("keeps the backend's words for a code without its own", () => {
    setLang("ko");
    expect(errorText({ code: "model_missing", message: "The model \"x\" is not installed in Ollama.", hint: "ollama pull x" })).toEqual({
      title: "모델이 설치되어 있지 않습니다.",
      detail: "The model \"x\" is not installed in Ollama.",
      hint: "ollama pull x",
    });
  });
});
