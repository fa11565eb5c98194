// A download's progress and its failure, in Korean, say everything in
// Korean: Ollama's stage words are worded, and a failed pull is worded
// from its parts (the model) with Ollama's own words kept as the muted
// cause, never an English sentence inside a Korean line.
import { afterEach, describe, expect, it, vi } from "vitest";
import { FakeBackend } from "../testing/fakeBackend";
import { $, $$, cleanup, click, start } from "../testing/ui";

afterEach(cleanup);

const manifest = "pull model manifest: file does not exist";
const failed = (model: string) => ({
  model,
  status: "error",
  completed: 0,
  total: 0,
  done: true,
  error: {
    code: "pull_failed",
    message: `Downloading the model "${model}" failed: ${manifest}`,
    hint: `Check the internet connection and the model name (see https://ollama.com/library), then try again or run: ollama pull ${model}`,
    args: { model, reason: manifest },
  },
});

/** english: an English word of the backend's sentences or Ollama's stages, outside the model name and the cause. */
const english = /Downloading|failed|pulling|manifest|Check the internet/;

describe("a download in Korean", () => {
  it("onboarding: the stage and the failure in Korean, Ollama's words only as the cause", async () => {
    const fake = new FakeBackend({ settings: { language: "ko", chat_model: "qwen3:4b" }, modelInstalled: false, pullStepMs: 60_000 });
    await start({}, fake);
    await vi.waitFor(() => expect(document.querySelector("section.onboarding button.pull")).not.toBeNull(), { timeout: 5000 });
    click("section.onboarding button.pull");
    await vi.waitFor(() => expect($("section.onboarding .progress").textContent).toContain("모델의 파일 목록을 읽는 중…"), { timeout: 5000 });
    expect($("section.onboarding .progress").textContent).not.toMatch(english);

    fake.emit("models.pull_progress", failed("qwen3:4b"));
    await vi.waitFor(() => expect(document.querySelector("section.onboarding [role=alert]")).not.toBeNull(), { timeout: 5000 });
    const banner = $("section.onboarding [role=alert]");
    expect(banner.querySelector(".title")!.textContent).toBe("모델을 내려받지 못했습니다.");
    expect(banner.querySelector(".detail:not(.cause)")).toBeNull();
    expect(banner.querySelector(".hint")!.textContent).toContain("터미널에서 ollama pull qwen3:4b 명령을 실행하세요.");
    expect(banner.querySelector(".hint code")!.textContent).toBe("ollama pull qwen3:4b");
    expect(banner.querySelector(".cause")!.textContent).toBe(manifest);
    const said = [...banner.querySelectorAll(".title, .detail:not(.cause), .hint")].map((e) => e.textContent).join(" ");
    expect(said).not.toMatch(english);
    expect(document.querySelector("section.onboarding .progress")).toBeNull(); // the banner says it, no bar left
  });

  it("the held composer: the failure line is Korean, with the cause apart", async () => {
    const fake = new FakeBackend({ settings: { language: "ko" }, pullStepMs: 60_000 });
    fake.storeConversation({ model: "mistral:7b" });
    await start({}, fake);
    click("nav li button.open");
    await vi.waitFor(() => expect(document.querySelector("#composer-held button.pull")).not.toBeNull(), { timeout: 5000 });
    click("#composer-held button.pull");
    await vi.waitFor(() => expect($("#composer-held").textContent).toContain("모델의 파일 목록을 읽는 중…"), { timeout: 5000 });
    expect($("#composer-held").textContent).not.toMatch(english);

    fake.emit("models.pull_progress", failed("mistral:7b"));
    await vi.waitFor(() => expect(document.querySelector("#composer-held .pull-error")).not.toBeNull(), { timeout: 5000 });
    expect($("#composer-held .pull-error").textContent!.trim()).toBe("모델을 내려받지 못했습니다.");
    expect($("#composer-held .cause").textContent).toBe(manifest);
  });

  it("Settings: a failed download is not called ready", async () => {
    const { fake } = await start({ settings: { language: "ko" }, pullStepMs: 60_000 });
    click("button[aria-label='설정']");
    await vi.waitFor(() => expect(document.querySelector("#set-pull")).not.toBeNull(), { timeout: 5000 });
    const input = $("#set-pull") as HTMLInputElement;
    input.value = "qwen3:4b";
    input.dispatchEvent(new Event("input", { bubbles: true }));
    await vi.waitFor(() => expect(($("#set-pull + button") as HTMLButtonElement).disabled).toBe(false), { timeout: 5000 });
    click("#set-pull + button");
    await vi.waitFor(() => expect($("dialog .pull").textContent).toContain("모델의 파일 목록을 읽는 중…"), { timeout: 5000 });
    fake.emit("models.pull_progress", failed("qwen3:4b"));
    await vi.waitFor(() => expect($$("dialog [role=alert]").map((a) => a.textContent).join(" ")).toContain("모델을 내려받지 못했습니다."), { timeout: 5000 });
    expect(document.querySelector("dialog .pull")).toBeNull(); // no bar, no "ready"
    expect($("dialog").textContent).not.toContain("준비 완료");
  });
});
