// A serve-mode page without its token (issue 22.8) says so and how to get
// the address again, instead of "Ollama is not reachable" and an empty
// conversation list.
import { afterEach, describe, expect, it, vi } from "vitest";
import { mount, unmount } from "svelte";
import App from "../App.svelte";
import { makeServices } from "../services";
import { HttpTransport } from "../api/transport";
import { setLang } from "../i18n/i18n.svelte";

let app: ReturnType<typeof mount> | null = null;

afterEach(() => {
  if (app) unmount(app);
  app = null;
  document.body.innerHTML = "";
  delete document.body.dataset.ready;
  setLang("en");
});

/** serve answers every call 401, as it does without the right token. */
function refusingServe(calls: string[]) {
  return async (input: string) => {
    calls.push(input);
    return new Response(JSON.stringify({ code: "unauthorized", message: "Missing or wrong access token." }), { status: 401 });
  };
}

async function open(token: string, locale = "en-US") {
  vi.spyOn(navigator, "language", "get").mockReturnValue(locale);
  const calls: string[] = [];
  const transport = new HttpTransport({ token, fetch: refusingServe(calls), eventSource: () => ({ addEventListener() {}, removeEventListener() {}, close() {} }) });
  const target = document.createElement("div");
  document.body.appendChild(target);
  app = mount(App, { target, props: { services: makeServices(transport) } });
  await vi.waitFor(() => expect(document.body.dataset.ready).toBe("1"));
  return calls;
}

describe("a page serve refuses", () => {
  it("opened without a token says the key is missing and how to get the address", async () => {
    const calls = await open("");
    const page = document.querySelector("[data-access]")!;
    expect(page.getAttribute("data-access")).toBe("missing");
    expect(page.textContent).toContain("opened without its access key");
    expect(page.textContent).toContain("wayfinder serve");
    expect(page.textContent).toContain("?token=");
    expect(document.body.textContent).not.toMatch(/Ollama|No conversations/);
    expect(calls).toHaveLength(1); // one probe, not a storm of refused calls
  });

  it("with a stale token says it is no longer valid, in Korean too", async () => {
    await open("old", "ko-KR");
    const page = document.querySelector("[data-access]")!;
    expect(page.getAttribute("data-access")).toBe("rejected");
    expect(page.textContent).toContain("더 이상 유효하지 않습니다");
    expect(page.textContent).toContain("wayfinder serve");
    // serve keeps its key across restarts: only a new one, or another data folder, makes a page's stale.
    expect(page.textContent).toContain("새 키를 만들었거나(wayfinder serve --new-token)");
    expect(page.textContent).not.toContain("다시 시작했기");
  });

  it("with a stale token names --new-token, not a restart, as the cause (en)", async () => {
    await open("old");
    const page = document.querySelector("[data-access]")!;
    expect(page.textContent).toContain("it was given a new one (wayfinder serve --new-token), or it uses another data folder");
    expect(page.textContent).toContain("it prints the address again, with the same key");
    expect(page.textContent).not.toContain("started again");
  });
});
