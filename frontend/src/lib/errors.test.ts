// The errors the backend words in English only, in the person's language:
// each code's title, and its hint when the catalogs have one.
import { afterEach, describe, expect, it } from "vitest";
import { setLang } from "../i18n/i18n.svelte";
import { errorText } from "./errors";
import ErrorBanner from "./ErrorBanner.svelte";
import { flushSync, mount, unmount } from "svelte";
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

// Codes without a hint of their own used to show the backend's English
// message as the detail: each now has its words, with its particulars.
describe("errorText for codes that name a path, a size or a case", () => {
  const hangul = /[가-힣]/;
  const english = "An English sentence from the backend.";
  it.each([
    ["invalid_input", { case: "model_name" }, "모델 이름이 아닙니다.", "목록에서 모델을 고르세요."],
    ["invalid_input", { case: "delete_model_name" }, "지울 모델의 이름을 정하세요.", ""],
    ["invalid_input", { case: "attachment_hidden", dir: "mcp-attachments" }, "이 첨부 파일은 여기에서 보여 줄 수 없습니다.", "데이터 폴더의 mcp-attachments 아래에"],
    ["invalid_input", { case: "name_taken", file: "보고서.pdf" }, "같은 이름의 파일이 이미 있습니다: 보고서.pdf", "파일 이름을 바꿔"],
    ["invalid_input", { case: "mcp_locked" }, "MCP 서버를 바꿀 수 없습니다.", ""],
    ["invalid_input", { case: "import_too_large", mb: "64" }, "파일이 64 MB보다 큽니다.", "`wayfinder import 파일`"],
    ["invalid_input", { case: "answer_again_last" }, "마지막 메시지에만", "새 메시지로"],
    ["invalid_input", { case: "answer_again_none" }, "다시 답할 메시지가 없습니다.", "대신 메시지를"],
    ["invalid_input", { case: "ollama_rejected", reason: "model does not support thinking" }, "Ollama가 요청을 거부했습니다.", "설정에서 고른 모델"],
    ["invalid_input", { case: "mcp_taken", name: "files" }, "같은 이름의 MCP 서버가 이미 있습니다: files", "다른 이름을"],
    ["invalid_input", { case: "mcp_unknown", name: "files" }, "더 이상 없습니다: files", "mcp.json이"],
    ["invalid_input", { case: "mcp_name", name: "웹 서버" }, "MCP 서버 이름으로 쓸 수 없습니다: 웹 서버", "1~32자"],
    ["invalid_input", { case: "mcp_no_command", name: "web" }, "MCP 서버 web에 명령이나 주소가", "시작하는 명령"],
    ["invalid_input", { case: "mcp_both", name: "web" }, "명령과 주소가 둘 다", "하나만"],
    ["invalid_input", { case: "mcp_url", name: "web", url: "ftp://x" }, "주소가 아닙니다: ftp://x", "http://127.0.0.1:8000/mcp"],
    ["invalid_input", { case: "mcp_timeout", name: "web" }, "시간 제한이 음수", "timeoutSeconds"],
    ["invalid_input", { case: "mcp_file", reason: "mcp.json is not valid JSON: unexpected end" }, "mcp.json에 잘못된 곳이", "아래 내용이"],
    ["invalid_input", { case: "mcp_save_too_big", max: "1048576" }, "mcp.json이 1048576바이트보다 커져 Wayfinder가 다시 읽을 수 없으므로 저장하지 않았습니다.", "쓰지 않는 서버를 지우거나"],
    ["not_found", { case: "answer" }, "그 답은 이 대화에 더 이상 없습니다.", "대화를 다시 불러오세요."],
    ["not_found", { case: "attachment", file: "a.png" }, "첨부되어 있지 않은 파일입니다: a.png", "목록을 새로 고치세요."],
    ["folder_not_granted", { path: "/home/me/문서" }, "목록에 없는 폴더입니다: /home/me/문서", "`wayfinder folders list`"],
    ["folder_not_found", { path: "/home/me/없음" }, "이 폴더가 없습니다: /home/me/없음", "‘선택…’으로"],
    ["folder_not_found", { case: "empty" }, "폴더를 고르세요.", "‘선택…’으로"],
    ["folder_not_found", { case: "bad_path", path: "\u0000x" }, "이해할 수 없는 경로입니다: \u0000x", "전체 경로"],
    ["not_a_folder", { path: "/home/me/a.txt" }, "폴더가 아니라 파일입니다: /home/me/a.txt", "폴더를 허용하세요."],
    ["disk_full", { dir: "/home/me/.local/share/wayfinder" }, "디스크가 가득 찼습니다: /home/me/.local/share/wayfinder", "공간을 비운 뒤"],
    ["data_folder_read_only", { dir: "/srv/wf" }, "다른 사용자의 폴더입니다: /srv/wf", "--data-dir"],
    ["title_too_long", { n: "250", max: "200" }, "제목이 250자입니다. 200자까지", "줄여 주세요."],
    ["message_too_long", { n: "40000", max: "32000" }, "메시지가 40000자입니다.", "지식 베이스에"],
    ["memory_too_long", { n: "600", max: "500" }, "기억할 내용이 600자입니다.", "한두 문장"],
    ["memory_kind_unknown", { kind: "secret" }, "기억 종류가 아닙니다: secret", "preference(선호)"],
    ["unknown_category", { category: "video" }, "“video” 분류는 없습니다.", "목록에서 분류를"],
  ])("%s %j in Korean", (code, args, detail, hint) => {
    setLang("ko");
    const got = errorText({ code: code as UiErrorCode, message: english, hint: "An English hint.", args });
    expect(got.title).toMatch(hangul);
    expect(got.detail).toContain(detail);
    if (hint) expect(got.hint).toContain(hint);
    else expect(got.hint).toBe("An English hint."); // the backend sends none for these: nothing to word
    expect(got.detail + got.title).not.toContain("English");
  });

  it("drops a message that only repeats the title when the particulars are not there", () => {
    setLang("ko");
    const got = errorText({ code: "memory_empty", message: "The memory is empty.", hint: "Write what Wayfinder should remember." });
    expect(got).toEqual({ title: "기억할 내용이 비어 있습니다.", detail: "", hint: "Wayfinder가 기억할 내용을 적으세요.", cause: "" });
  });

  it("shows a path as data: markup and backticks in it stay text", () => {
    setLang("en");
    const path = "/tmp/<img src=x onerror=alert(1)>/`rm -rf ~`";
    const got = errorText({ code: "folder_not_granted", message: "m", args: { path } });
    expect(got.detail).toBe("This folder is not among those Wayfinder may read: /tmp/<img src=x onerror=alert(1)>/rm -rf ~");
    const banner = document.createElement("div");
    document.body.appendChild(banner);
    const app = mount(ErrorBanner, { target: banner, props: { error: { code: "folder_not_granted", message: "m", args: { path } } } });
    flushSync();
    expect(banner.querySelector("img")).toBeNull();
    expect(banner.querySelector(".detail")!.textContent).toContain("<img src=x onerror=alert(1)>");
    expect([...banner.querySelectorAll(".hint code")].map((c) => c.textContent)).toEqual(["wayfinder folders list"]);
    unmount(app);
    banner.remove();
  });
});

describe("errorText never shows an English sentence the catalogs word", () => {
  afterEach(() => setLang("en"));
  it.each([
    ["nothing_to_import", "Choose at least one file or folder to import.", undefined],
    ["upload_no_name", "The file has no name.", undefined],
    ["desktop_only", "This works only in the desktop window.", "In the browser, drag files onto the page or use the download button."],
    ["document_not_found", "That document is no longer in the knowledge base.", "Refresh the list."],
    ["unknown_decision", "Unknown decision \"maybe\".", "Approve, revise or cancel a plan; run once, always or deny a tool call."],
    ["plan_changed", "The decision answers something that no longer waits.", "Look at what waits now, then decide again."],
  ])("%s in Korean", (code, message, hint) => {
    setLang("ko");
    const got = errorText({ code: code as UiErrorCode, message, hint });
    expect(got.detail).toBe("");
    expect(got.title + got.hint).not.toMatch(/[A-Za-z]{4,} [a-z]{3,}/);
  });

  it("names the example model to download from its parts", () => {
    setLang("ko");
    expect(errorText({ code: "model_name_empty", message: "Name the model to download, e.g. qwen3:4b", args: { model: "qwen3:4b" } })).toEqual({
      title: "내려받을 모델 이름을 적으세요.",
      detail: "",
      hint: "예: qwen3:4b",
      cause: "",
    });
  });
});

describe("errorText for a fault inside Wayfinder", () => {
  afterEach(() => setLang("en"));
  it("shows Go's own words as the raw cause, not as a sentence", () => {
    setLang("ko");
    expect(errorText({ code: "internal", message: "database is locked" })).toEqual({ title: "Wayfinder 내부에서 문제가 생겼습니다.", detail: "", hint: "", cause: "database is locked" });
    expect(errorText({ code: "bad_request", message: "argument 1 of ChatService.Send: json: cannot unmarshal" }).cause).toContain("cannot unmarshal");
  });
});
