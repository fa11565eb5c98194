// The model picker in the chat header, the model named in each answer's
// details, onboarding that offers installed models first, and pulling
// (with cancel) and deleting models in Settings.
import { afterEach, describe, expect, it, vi } from "vitest";
import { FakeBackend } from "../testing/fakeBackend";
import { $, $$, cleanup, click, fill, key, send, start } from "../testing/ui";
import { flushSync } from "svelte";

afterEach(cleanup);

function pick(model: string): void {
  const sel = $("#model-picker") as HTMLSelectElement;
  sel.value = model;
  sel.dispatchEvent(new Event("change", { bubbles: true }));
  flushSync();
}

async function reply(n: number): Promise<HTMLElement> {
  await vi.waitFor(() => expect(document.querySelectorAll("article[data-role='assistant'][data-status='complete']")).toHaveLength(n));
  return $$("article[data-role='assistant']")[n - 1]!;
}

function detailsModel(article: HTMLElement): string {
  return article.querySelector("details dd.model")?.textContent ?? "";
}

/** canSend types text in the message box and says whether Send may be pressed. */
function canSend(text: string): boolean {
  fill("#composer-input", text);
  return !($("button.send") as HTMLButtonElement).disabled;
}

describe("model picker", () => {
  it("lists the installed chat models, tools-capable first, and shows the default", async () => {
    const fake = new FakeBackend({ settings: { language: "en" } });
    fake.models.push({ name: "qwen3:4b", size: 2_500_000_000, capabilities: ["completion", "tools", "thinking"] });
    await start({}, fake);
    const sel = $("#model-picker") as HTMLSelectElement;
    await vi.waitFor(() => expect(sel.querySelectorAll("option")).toHaveLength(3));
    const groups = [...sel.querySelectorAll("optgroup")].map((g) => [g.label, [...g.querySelectorAll("option")].map((o) => o.value)]);
    expect(groups).toEqual([
      ["Can use tools", ["llama3.2:3b", "qwen3:4b"]],
      ["Without tools (no calculator, documents or tool recommendations)", ["gemma3:1b"]],
    ]);
    expect(sel.value).toBe("llama3.2:3b");
    expect(sel.selectedOptions[0]!.textContent).toBe("llama3.2:3b · tools (default)");
    expect([...sel.options].some((o) => o.value.startsWith("bge-m3"))).toBe(false);
  });

  it("starts a new chat with the picked model, switches it midway, and names the writer of each answer", async () => {
    const { fake } = await start();
    await vi.waitFor(() => expect(($("#model-picker") as HTMLSelectElement).options.length).toBe(2));
    pick("gemma3:1b");
    await send("hello");
    expect(fake.calls.find((c) => c.method === "Send")!.args).toEqual(["", "hello", { model: "gemma3:1b" }]);
    expect(detailsModel(await reply(1))).toBe("gemma3:1b");
    await vi.waitFor(() => expect(($("#model-picker") as HTMLSelectElement).value).toBe("gemma3:1b"));

    pick("llama3.2:3b");
    await vi.waitFor(() => expect(fake.calls.some((c) => c.method === "SetModel")).toBe(true));
    expect(fake.calls.find((c) => c.method === "SetModel")!.args).toEqual(["s-1", "llama3.2:3b"]);
    await send("and again");
    expect(detailsModel(await reply(2))).toBe("llama3.2:3b");
    expect(detailsModel($$("article[data-role='assistant']")[0]!)).toBe("gemma3:1b");

    // A new chat starts from the default again.
    click("button.new");
    expect(($("#model-picker") as HTMLSelectElement).value).toBe("llama3.2:3b");
  });

  it("holds sending in a conversation whose model is gone and offers an installed one", async () => {
    const fake = new FakeBackend({ settings: { language: "en" } });
    fake.storeConversation({ model: "mistral:7b" });
    await start({}, fake);
    click("nav li button.open");
    await vi.waitFor(() => expect(document.querySelector("#composer-held[data-problem='model_missing']")).not.toBeNull());
    expect($("#composer-held").textContent).toContain("mistral:7b");
    expect(($("#model-picker") as HTMLSelectElement).selectedOptions[0]!.textContent).toBe("mistral:7b");
    expect($("#model-picker-state").textContent).toBe("not installed");
    click("#composer-held button.use");
    await vi.waitFor(() => expect(document.querySelector("#composer-held")).toBeNull());
    expect(fake.calls.find((c) => c.method === "SetModel")!.args).toEqual(["old", "llama3.2:3b"]);
    // The pressed button is gone: the message box has the focus, so typing goes somewhere.
    await vi.waitFor(() => expect(document.activeElement?.id).toBe("composer-input"));
  });
});

describe("fallback model", () => {
  it("sends while the chosen model is missing when the fallback model is installed, and the answer's details name both", async () => {
    const fake = new FakeBackend({ settings: { language: "en", chat_model: "qwen3:4b", fallback_model: "llama3.2:3b" }, modelInstalled: false, fallbackFrom: "qwen3:4b" });
    await start({}, fake);
    await vi.waitFor(() => expect(($("#model-picker") as HTMLSelectElement).selectedOptions[0]?.textContent).toBe("qwen3:4b"), { timeout: 5000 });
    expect($("#model-picker-state").textContent).toBe("not installed");
    expect(document.querySelector("section.onboarding")).toBeNull();
    expect(canSend("Name my café")).toBe(true);
    key($("#composer-input"), "Enter");
    expect(detailsModel(await reply(1))).toBe("llama3.2:3b (fallback: qwen3:4b could not answer)");
    expect(document.querySelector("#composer-held")).toBeNull();
  });

  it("still holds sending when the fallback model is not installed either", async () => {
    const fake = new FakeBackend({ settings: { language: "en", chat_model: "qwen3:4b", fallback_model: "mistral:7b" }, modelInstalled: false });
    await start({}, fake);
    await vi.waitFor(() => expect(document.querySelector("section.onboarding[data-problem='model_missing']")).not.toBeNull(), { timeout: 5000 });
    expect(canSend("Name my café")).toBe(false);
  });
});

describe("a model list that cannot be read", () => {
  const listFails = { code: "ollama_error", message: "list: 500 Internal Server Error" } as const;
  const picked = () => ($("#model-picker") as HTMLSelectElement).selectedOptions[0]?.textContent;

  it("sends to the fallback model while the status says the chosen model is missing and the window's list fails", async () => {
    const fake = new FakeBackend({ settings: { language: "en", chat_model: "qwen3:4b", fallback_model: "llama3.2:3b" }, modelInstalled: false, fallbackFrom: "qwen3:4b", modelsError: listFails });
    await start({}, fake);
    await vi.waitFor(() => expect(fake.calls.filter((c) => c.method === "Models").length).toBeGreaterThan(0), { timeout: 5000 });
    await vi.waitFor(() => expect($("#model-picker-state").textContent).toBe("can’t check"), { timeout: 5000 });
    expect(picked()).toBe("qwen3:4b");
    expect(($("#model-picker") as HTMLSelectElement).title.split("\n")[0]).toBe("qwen3:4b — can’t check now");
    expect(document.querySelector("section.onboarding")).toBeNull();
    expect(canSend("Name my café")).toBe(true);
    key($("#composer-input"), "Enter");
    expect(detailsModel(await reply(1))).toBe("llama3.2:3b (fallback: qwen3:4b could not answer)");
  });

  it("sends when Ollama answers but its list does not: nothing says the model is missing", async () => {
    const fake = new FakeBackend({ settings: { language: "ko", chat_model: "qwen3:4b" }, modelInstalled: false, modelsError: listFails });
    // As CheckStatus says it: Ollama answered, the list's own error, the model not known to be there.
    fake.status.error = { ...listFails };
    await start({}, fake);
    await vi.waitFor(() => expect(fake.calls.filter((c) => c.method === "Models").length).toBeGreaterThan(0), { timeout: 5000 });
    // The state beside the name, short, so an 800 px header shows all of it; the tooltip has the long words.
    await vi.waitFor(() => expect($("#model-picker-state").textContent).toBe("확인 불가"), { timeout: 5000 });
    expect(picked()).toBe("qwen3:4b");
    expect($("#model-picker").getAttribute("aria-describedby")).toBe("model-picker-state");
    expect(($("#model-picker") as HTMLSelectElement).title.split("\n")[0]).toBe("qwen3:4b — 지금은 확인할 수 없음");
    expect(document.querySelector("section.onboarding")).toBeNull();
    expect(canSend("카페 이름 지어 줘")).toBe(true);
    key($("#composer-input"), "Enter");
    await reply(1);
  });

  it("ends the turn with the worded error when Ollama turns out to be down, then holds sending with the fix (Korean)", async () => {
    const fake = new FakeBackend({
      settings: { language: "ko", chat_model: "qwen3:4b", fallback_model: "llama3.2:3b" },
      modelInstalled: false,
      modelsError: listFails,
      reply: () => "카페 이름 후보를 몇 가지",
      failWith: { code: "ollama_unreachable", message: "ollama is not reachable", hint: "ollama serve", args: { host: "http://127.0.0.1:11434" } },
    });
    fake.status.error = { ...listFails };
    await start({}, fake);
    await vi.waitFor(() => expect($("#model-picker-state").textContent).toBe("확인 불가"), { timeout: 5000 });
    fill("#composer-input", "카페 이름 지어 줘");
    key($("#composer-input"), "Enter");
    await vi.waitFor(() => expect(fake.calls.some((c) => c.method === "Send")).toBe(true), { timeout: 5000 });
    fake.status.reachable = false; // Ollama stops while the turn runs
    await vi.waitFor(() => expect(document.querySelector("article[data-status='error']")).not.toBeNull(), { timeout: 5000 });
    // The failed turn makes the window check at once: sending waits, with the fix.
    await vi.waitFor(() => expect($("#composer-held").dataset.problem).toBe("unreachable"), { timeout: 2000 });
    expect($("#composer-held").textContent).toContain("ollama serve");
    // One message says so: the reply says only that Ollama was away for it, the banner by the box what to do.
    await vi.waitFor(() => expect(document.querySelector("article[data-status='error'] .away")).not.toBeNull());
    expect(document.querySelector("article[data-status='error'] [role=alert]")).toBeNull();
    // Ollama is back: the failed reply says so beside its Try again, where it only went on saying it cannot be reached.
    fake.status.reachable = true;
    fake.emit("ollama.status", structuredClone(fake.status));
    await vi.waitFor(() => expect(document.querySelector("article[data-status='error'] [role=alert] button")?.textContent).toBe("다시 시도"), { timeout: 5000 });
    const banner = $("article[data-status='error'] [role=alert]");
    expect(banner.querySelector(".title")!.textContent).toBe("Ollama에 연결할 수 없습니다.");
    expect(banner.querySelector(".again")!.textContent).toBe("Ollama가 다시 응답합니다.");
    expect(document.querySelector("article[data-status='error'] .away")).toBeNull();
  });

  it("still holds sending when the status says the model is missing and no fallback model is named", async () => {
    const fake = new FakeBackend({ settings: { language: "en", chat_model: "qwen3:4b" }, modelInstalled: false, modelsError: listFails });
    await start({}, fake);
    await vi.waitFor(() => expect(document.querySelector("section.onboarding[data-problem='model_missing']")).not.toBeNull(), { timeout: 5000 });
    expect(canSend("Name my café")).toBe(false);
  });
});

describe("onboarding and Settings", () => {
  it("offers the installed tools-capable models before pulling the default one", async () => {
    const fake = new FakeBackend({ settings: { language: "en", chat_model: "qwen3:4b" }, modelInstalled: false });
    await start({}, fake);
    await vi.waitFor(() => expect(document.querySelector("section.onboarding button.use")).not.toBeNull());
    expect($("section.onboarding").dataset.problem).toBe("model_missing");
    const offered = $$("section.onboarding button.use").map((b) => b.textContent);
    expect(offered).toEqual(["Use llama3.2:3b"]);
    expect($("section.onboarding").textContent).toContain("ollama pull qwen3:4b");
    click("section.onboarding button.use");
    await vi.waitFor(() => expect(document.querySelector("section.onboarding")).toBeNull());
    expect(fake.settings.chat_model).toBe("llama3.2:3b");
    expect(document.querySelector("#empty-title")).not.toBeNull();
    await vi.waitFor(() => expect(document.activeElement?.id).toBe("composer-input"));
  });

  it("cancels a download", async () => {
    const fake = new FakeBackend({ settings: { language: "en", chat_model: "qwen3:4b" }, modelInstalled: false, pullStepMs: 200 });
    await start({}, fake);
    await vi.waitFor(() => expect(document.querySelector("section.onboarding button.pull")).not.toBeNull());
    click("section.onboarding button.pull");
    await vi.waitFor(() => expect(document.querySelector("section.onboarding button.cancel-pull")).not.toBeNull());
    click("section.onboarding button.cancel-pull");
    await vi.waitFor(() => expect(document.querySelector("section.onboarding button.cancel-pull")).toBeNull());
    expect(fake.calls.some((c) => c.method === "CancelPull" && c.args[0] === "qwen3:4b")).toBe(true);
    expect(($("section.onboarding button.pull") as HTMLButtonElement).disabled).toBe(false);
    expect(fake.models.some((m) => m.name === "qwen3:4b")).toBe(false);
  });

  it("deletes a model from Settings only after a confirmation", async () => {
    const { fake } = await start();
    click("button[aria-label='Settings']");
    await vi.waitFor(() => expect(document.querySelector("li[data-model='gemma3:1b'] .delete-model")).not.toBeNull());
    click("li[data-model='gemma3:1b'] .delete-model");
    expect($("li[data-model='gemma3:1b'] .confirm").textContent).toContain("Delete gemma3:1b from this computer (800 MB)?");
    click("li[data-model='gemma3:1b'] .delete-no");
    expect(fake.calls.some((c) => c.method === "DeleteModel")).toBe(false);
    click("li[data-model='gemma3:1b'] .delete-model");
    click("li[data-model='gemma3:1b'] .delete-yes");
    await vi.waitFor(() => expect(document.querySelector("li[data-model='gemma3:1b']")).toBeNull());
    expect(fake.calls.find((c) => c.method === "DeleteModel")!.args).toEqual(["gemma3:1b"]);
  });
});

describe("model picker, in a narrow header", () => {
  // A select cuts its own text without "…" ("tools (defaul" at 800 px):
  // the words are drawn over it, ellipsed by CSS, and kept whole in its tooltip.
  it.each([
    ["en", "llama3.2:3b · tools (default)"],
    ["ko", "llama3.2:3b · 도구 (기본)"],
  ] as const)("shows the chosen model's words in a face of their own, whole in the tooltip (%s)", async (language, first) => {
    await start({}, new FakeBackend({ settings: { language } }));
    const sel = $("#model-picker") as HTMLSelectElement;
    const face = $("[data-testid='model-picker-face']");
    await vi.waitFor(() => expect(face.textContent).toBe(first));
    expect(face.getAttribute("aria-hidden")).toBe("true");
    expect(sel.title.split("\n")[0]).toBe(first);
    pick("gemma3:1b");
    expect(face.textContent).toBe(sel.selectedOptions[0]!.textContent);
    expect(sel.title.split("\n")[0]).toBe(face.textContent);
  });
});
