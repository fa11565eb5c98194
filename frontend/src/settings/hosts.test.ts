import { afterEach, describe, expect, it, vi } from "vitest";
import { $, $$, cleanup, click, fill, openSettings, start } from "../testing/ui";
import { FakeBackend, type FakeOptions } from "../testing/fakeBackend";
import type { HostStatus } from "../api/gotypes.gen";

afterEach(cleanup);

const hosts: HostStatus[] = [
  { url: "http://127.0.0.1:11434", up: true, models: ["qwen3:4b", "bge-m3:latest"], in_flight: 0 },
  {
    url: "http://gpu2:11434", up: false, models: [], in_flight: 0,
    down_since: "2026-11-26T22:01:03Z", retry_at: "2026-11-26T22:01:05Z",
    error: "list: ollama is not reachable: connection refused", code: "ollama_unreachable",
  },
];

/** settingsWith opens Settings once the window has started and Ollama's status lists these hosts. */
async function settingsWith(withHosts: HostStatus[], language = "en"): Promise<void> {
  const { fake } = await start({ settings: { language } as FakeOptions["settings"] });
  fake.status.hosts = withHosts;
  await openSettings();
}

describe("Ollama hosts in Settings", () => {
  it("lists each host with its state, models and why one is down", async () => {
    await settingsWith(hosts);
    await vi.waitFor(() => expect($$(".hosts > li")).toHaveLength(2), { timeout: 5000 });
    const up = $("li[data-host='http://127.0.0.1:11434']");
    expect(up.dataset.up).toBe("1");
    expect(up.querySelector(".state")!.textContent).toBe("up");
    expect(up.querySelector(".models")!.textContent).toBe("models: qwen3:4b, bge-m3:latest");
    const down = $("li[data-host='http://gpu2:11434']");
    expect(down.dataset.up).toBe("0");
    expect(down.querySelector(".state")!.textContent).toMatch(/^down since .+, tried again from .+$/);
    expect(down.querySelector(".why")!.textContent).toBe("Nothing listens at this address: is that computer on, with Ollama running on this port?");
    expect(down.querySelector(".why")!.getAttribute("title")).toContain("connection refused");
  });

  it("says it in Korean", async () => {
    await settingsWith(hosts, "ko");
    await vi.waitFor(() => expect($$(".hosts > li")).toHaveLength(2), { timeout: 5000 });
    expect($("li[data-host='http://127.0.0.1:11434'] .state").textContent).toBe("정상");
    expect($("li[data-host='http://gpu2:11434'] .state").textContent).toMatch(/부터 응답 없음, .+부터 다시 시도$/);
    // Why, in Korean: the network's English words only on hover.
    expect($("li[data-host='http://gpu2:11434'] .why").textContent).toBe("이 주소에서 연결을 받는 곳이 없습니다: 그 컴퓨터가 켜져 있고 이 포트에서 Ollama가 실행 중인가요?");
  });

  it("says a host's own error apart from its address being unreachable", async () => {
    await settingsWith([hosts[0]!, { ...hosts[1]!, error: "list: ollama reported an error: 500: gpu lost", code: "ollama_error" }]);
    await vi.waitFor(() => expect($$(".hosts > li")).toHaveLength(2), { timeout: 5000 });
    expect($("li[data-host='http://gpu2:11434'] .why").textContent).toBe("Ollama there reported an error.");
  });

  // A host that takes the connection and says nothing is not one where
  // nothing listens: the words differ, the raw errors stay on hover.
  const hungAndRefused: HostStatus[] = [
    hosts[1]!,
    {
      ...hosts[1]!, url: "http://gpu3:11434", code: "timeout",
      error: "list: ollama is not reachable: connected, but no answer within 2s: context deadline exceeded",
    },
  ];
  it.each([
    ["en", "Nothing listens at this address: is that computer on, with Ollama running on this port?",
      "Ollama there does not answer in time: it takes the connection but sends no reply. It may be stuck or overloaded."],
    ["ko", "이 주소에서 연결을 받는 곳이 없습니다: 그 컴퓨터가 켜져 있고 이 포트에서 Ollama가 실행 중인가요?",
      "그 호스트의 Ollama가 제때 응답하지 않습니다: 연결은 되지만 답이 오지 않습니다. 멈췄거나 과부하 상태일 수 있습니다."],
  ])("tells a host that hangs from one that refuses the connection (%s)", async (language, refused, hangs) => {
    await settingsWith(hungAndRefused, language);
    await vi.waitFor(() => expect($$(".hosts > li")).toHaveLength(2), { timeout: 5000 });
    const refusedWhy = $("li[data-host='http://gpu2:11434'] .why");
    const hangsWhy = $("li[data-host='http://gpu3:11434'] .why");
    expect(refusedWhy.textContent).toBe(refused);
    expect(hangsWhy.textContent).toBe(hangs);
    expect(refusedWhy.getAttribute("title")).toContain("connection refused");
    expect(hangsWhy.getAttribute("title")).toContain("no answer within 2s");
  });

  it.each([
    ["en", "empty", "", "Enter Ollama's address"],
    ["en", "only spaces", "   ", "Enter Ollama's address"],
    ["ko", "2,160 characters of words", "가나다 long words ".repeat(120), "Ollama 주소를 입력하세요."],
    ["ko", "one of two wrong", "gpu1, ftp://x", "Ollama 주소를 입력하세요."],
  ])("says under the box why Save is grey for an address that is not one (%s, %s)", async (language, _what, host, said) => {
    await settingsWith([], language);
    await vi.waitFor(() => expect($$("#set-host").length).toBe(1), { timeout: 5000 });
    expect($$("#set-host-invalid")).toHaveLength(0);
    fill("#set-host", host);
    expect(($("dialog[open] footer button[type=submit]") as HTMLButtonElement).disabled).toBe(true);
    expect($("#set-host-invalid").textContent).toContain(said);
    expect($("#set-host").getAttribute("aria-invalid")).toBe("true");
    expect($("#set-host").getAttribute("aria-describedby")).toContain("set-host-invalid");
    expect(($("#set-host") as HTMLInputElement).value).toBe(host);
    fill("#set-host", "http://127.0.0.1:11434");
    expect($$("#set-host-invalid")).toHaveLength(0);
    expect(($("dialog[open] footer button[type=submit]") as HTMLButtonElement).disabled).toBe(false);
  });

  it("shows no list for one host", async () => {
    await settingsWith([]);
    await vi.waitFor(() => expect($$("#set-host-status").length).toBe(1), { timeout: 5000 });
    expect($$(".hosts")).toHaveLength(0);
  });
});

const downSince = { up: false, models: [], in_flight: 0, down_since: "2026-11-26T22:01:03Z", retry_at: "2026-11-26T22:01:05Z" };
const allDown: HostStatus[] = [
  { ...downSince, url: "http://gpu1:11434", error: "list: ollama is not reachable: connection refused" },
  { ...downSince, url: "http://gpu2:11434", error: "list: ollama is not reachable: connection refused" },
];

describe("no Ollama host answers", () => {
  it("says so once in Settings, with what to do, in English and Korean", async () => {
    await settingsWith(allDown);
    await vi.waitFor(() => expect($$(".hosts > li")).toHaveLength(2), { timeout: 5000 });
    expect($$(".none-up")).toHaveLength(1);
    expect($(".none-up").textContent).toBe(
      "No host answers, so nothing can be sent. Start Ollama on each of them (open the Ollama app, or run ollama serve there), or check the addresses.",
    );
    expect($(".none-up code").textContent).toBe("ollama serve"
    );
    cleanup();
    await settingsWith(allDown, "ko");
    await vi.waitFor(() => expect($$(".none-up")).toHaveLength(1), { timeout: 5000 });
    expect($(".none-up").textContent).toContain("응답하는 호스트가 없어");
  });

  it("probes the hosts at once only when the person asks to check now", async () => {
    const { fake } = await start({ reachable: false, hosts: allDown, settings: { language: "en" } as FakeOptions["settings"] });
    await vi.waitFor(() => expect($$("section.onboarding .hosts-none")).toHaveLength(1), { timeout: 5000 });
    const asked = (method: string) => fake.calls.filter((c) => c.method === method).length;
    // The window's own checks keep each host's wait (Status)...
    expect(asked("Status")).toBeGreaterThan(0);
    expect(asked("CheckNow")).toBe(0);
    // ...the person's "Check now" does not (CheckNow).
    click("section.onboarding .recheck button");
    await vi.waitFor(() => expect(asked("CheckNow")).toBe(1), { timeout: 5000 });
  });

  it("says nothing of it while one host is up", async () => {
    await settingsWith(hosts);
    await vi.waitFor(() => expect($$(".hosts > li")).toHaveLength(2), { timeout: 5000 });
    expect($$(".none-up")).toHaveLength(0);
  });

  it("names every address on the first-start page and beside the message box", async () => {
    await start({ reachable: false, hosts: allDown, settings: { language: "en" } as FakeOptions["settings"] });
    await vi.waitFor(() => expect($$("section.onboarding .hosts-none")).toHaveLength(1), { timeout: 5000 });
    expect($("section.onboarding .hosts-none").textContent).toBe(
      "None of the 2 Ollama addresses answers: http://gpu1:11434, http://gpu2:11434. Start Ollama on each of them, or check the addresses in Settings.",
    );
    cleanup();
    // An old conversation open: the reason sits beside the message box.
    const fake = new FakeBackend({ reachable: false, hosts: allDown, settings: { language: "ko" } as FakeOptions["settings"] });
    fake.storeConversation({ title: "휴가", question: "휴가는 며칠인가요?", answer: "1년에 15일입니다." });
    await start({}, fake);
    click("nav li button.open");
    await vi.waitFor(() => expect($$("#composer-held")).toHaveLength(1), { timeout: 5000 });
    expect($("#composer-held").textContent).toContain("Ollama 호스트 2곳 모두 응답하지 않습니다(http://gpu1:11434, http://gpu2:11434)");
    expect($("#composer-held").textContent).toContain("주소를 확인하세요");
  }, 20000);
});

describe("a download over several hosts", () => {
  const twoUp: HostStatus[] = [
    { url: "http://gpu1:11434", up: true, models: [], in_flight: 0 },
    { url: "http://gpu2:11434", up: true, models: [], in_flight: 0 },
  ];

  /** pullIn starts a download in Settings and records each figure its bar shows. */
  async function pullIn(language: string) {
    const fake = new FakeBackend({ hosts: twoUp, pullStepMs: 5, settings: { language } as FakeOptions["settings"] });
    await start({}, fake);
    await openSettings();
    const seen: number[] = [];
    const hostsSaid = new Set<string>();
    const watch = new MutationObserver(() => {
      const v = document.querySelector(".pull [role=progressbar]")?.getAttribute("aria-valuenow");
      if (v && seen.at(-1) !== Number(v)) seen.push(Number(v));
      const at = document.querySelector(".pull .pull-host")?.textContent;
      if (at) hostsSaid.add(at);
    });
    watch.observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
    fill("#set-pull", "qwen3:4b");
    click($$(".inline button").find((b) => b.textContent !== "")!);
    await vi.waitFor(() => expect(fake.calls.filter((c) => c.method === "Pull")).toHaveLength(1), { timeout: 5000 });
    return { fake, seen, hostsSaid, watch };
  }

  it("says which host it is at and keeps one bar that never goes back", async () => {
    const { seen, hostsSaid, watch } = await pullIn("en");
    await vi.waitFor(() => expect($(".pull p.muted").textContent).toBe("qwen3:4b is ready."), { timeout: 10000 });
    watch.disconnect();
    expect([...hostsSaid]).toEqual(["Host 1 of 2: http://gpu1:11434", "Host 2 of 2: http://gpu2:11434"]);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(100);
    expect(seen.some((v) => v > 0 && v <= 50)).toBe(true); // the first host's part
    expect(seen.some((v) => v > 50 && v < 100)).toBe(true); // the second host's, after it
    expect($$(".pull .pull-host")).toHaveLength(0); // done: no host named any more
  }, 20000);

  it("says the host on the first-start page too, with that host's figures", async () => {
    const fake = new FakeBackend({ hosts: twoUp, modelInstalled: false, pullStepMs: 60_000, settings: { language: "en", chat_model: "qwen3:4b" } as FakeOptions["settings"] });
    await start({}, fake);
    await vi.waitFor(() => expect(document.querySelector("section.onboarding button.pull")).not.toBeNull(), { timeout: 5000 });
    click("section.onboarding button.pull");
    await vi.waitFor(() => expect($$("section.onboarding .pull-host")).toHaveLength(1), { timeout: 5000 });
    expect($("section.onboarding .pull-host").textContent).toBe("Host 1 of 2: http://gpu1:11434 (400 / 2,000 MB)");
    expect($("section.onboarding [role=progressbar]").getAttribute("aria-valuenow")).toBe("10");
    expect($("section.onboarding [role=progressbar]").getAttribute("aria-valuetext")).toBe("10% · Host 1 of 2: http://gpu1:11434");
  }, 20000);

  it("names a host that did not get the model, in English and Korean", async () => {
    for (const language of ["en", "ko"]) {
      const fake = new FakeBackend({ hosts: twoUp, pullStepMs: 60_000, settings: { language } as FakeOptions["settings"] });
      await start({}, fake);
      await openSettings();
      fill("#set-pull", "qwen3:4b");
      click($$(".inline button").find((b) => b.textContent !== "")!);
      // The fake's first line (host 1 of 2), then the last: host 2 was missed.
      await vi.waitFor(() => expect($(".pull [role=progressbar]").getAttribute("aria-valuenow")).toBe("10"), { timeout: 5000 });
      fake.emit("models.pull_progress", { model: "qwen3:4b", status: "success", completed: 0, total: 0, done: true, missed: ["http://gpu2:11434"] });
      await vi.waitFor(() => expect($(".pull p.muted").textContent).toContain("http://gpu2:11434"), { timeout: 5000 });
      expect($(".pull p.muted").textContent).toBe(
        language === "ko"
          ? "qwen3:4b: 다른 호스트에는 준비됐지만, 응답하지 않은 http://gpu2:11434에는 받지 못했습니다. 다시 켜지면 한 번 더 내려받으세요."
          : "qwen3:4b is ready on the other hosts, but not on http://gpu2:11434, which did not answer. Pull it again once it is back.",
      );
      expect($$("[role=alert]")).toHaveLength(0); // not an error: the model works
      cleanup();
    }
  }, 20000);

  it("says it in Korean", async () => {
    const { hostsSaid, watch } = await pullIn("ko");
    await vi.waitFor(() => expect($(".pull p.muted").textContent).toBe("qwen3:4b 준비 완료."), { timeout: 10000 });
    watch.disconnect();
    expect([...hostsSaid]).toEqual(["호스트 2곳 중 1번째: http://gpu1:11434", "호스트 2곳 중 2번째: http://gpu2:11434"]);
  }, 20000);
});

describe("a download that fails", () => {
  const failure = { model: "qwen3:4b", status: "error", completed: 0, total: 0, done: true, error: { code: "pull_failed" as const, message: "pull model manifest: no such host" } };

  it("shows its error and no bar, on the first-start page and in Settings, in English and Korean", async () => {
    for (const language of ["en", "ko"]) {
      // The first-start page; the fake's first figures come before the failure, as Ollama's would.
      const first = new FakeBackend({ modelInstalled: false, pullStepMs: 60_000, settings: { language, chat_model: "qwen3:4b" } as FakeOptions["settings"] });
      await start({}, first);
      await vi.waitFor(() => expect(document.querySelector("section.onboarding button.pull")).not.toBeNull(), { timeout: 5000 });
      click("section.onboarding button.pull");
      await vi.waitFor(() => expect($("section.onboarding [role=progressbar]").getAttribute("aria-valuenow")).toBe("20"), { timeout: 5000 });
      first.emit("models.pull_progress", failure);
      await vi.waitFor(() => expect($$("section.onboarding [role=alert]")).toHaveLength(1), { timeout: 5000 });
      expect($$("section.onboarding [role=progressbar]")).toHaveLength(0);
      expect($("section.onboarding button.pull").hasAttribute("disabled")).toBe(false); // it can be tried again
      cleanup();

      const fake = new FakeBackend({ pullStepMs: 60_000, settings: { language } as FakeOptions["settings"] });
      await start({}, fake);
      await openSettings();
      fill("#set-pull", "qwen3:4b");
      click($$(".inline button").find((b) => b.textContent !== "")!);
      await vi.waitFor(() => expect($(".pull [role=progressbar]").getAttribute("aria-valuenow")).toBe("20"), { timeout: 5000 });
      fake.emit("models.pull_progress", failure);
      await vi.waitFor(() => expect($$("[role=alert]").length).toBeGreaterThan(0), { timeout: 5000 });
      expect($$(".pull [role=progressbar]")).toHaveLength(0);
      cleanup();
    }
  }, 20000);
});

describe("a host address typed but not saved", () => {
  it("says on a line of its own that Save connects to it", async () => {
    await settingsWith(hosts);
    await vi.waitFor(() => expect($("#set-host")).toBeTruthy(), { timeout: 5000 });
    expect(document.querySelector("[data-testid=host-changed]")).toBeNull();
    fill("#set-host", "http://gpu9:11434");
    await vi.waitFor(() => expect($("[data-testid=host-changed]").textContent).toBe("Save to connect to the new address."), { timeout: 5000 });
  });
});
