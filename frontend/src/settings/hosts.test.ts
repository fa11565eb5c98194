import { afterEach, describe, expect, it, vi } from "vitest";
import { $, $$, cleanup, click, start } from "../testing/ui";
import type { FakeOptions } from "../testing/fakeBackend";

afterEach(cleanup);

const hosts = [
  { url: "http://127.0.0.1:11434", up: true, models: ["qwen3:4b", "bge-m3:latest"], in_flight: 0 },
  {
    url: "http://gpu2:11434", up: false, models: [], in_flight: 0,
    down_since: "2026-11-26T22:01:03Z", retry_at: "2026-11-26T22:01:05Z",
    error: "list: ollama is not reachable: connection refused",
  },
];

async function openSettings(withHosts: typeof hosts, language = "en") {
  const ctx = await start({ settings: { language } as FakeOptions["settings"] });
  ctx.fake.status.hosts = withHosts;
  click(`button[aria-label="${language === "ko" ? "설정" : "Settings"}"]`);
  return ctx;
}

describe("Ollama hosts in Settings", () => {
  it("lists each host with its state, models and why one is down", async () => {
    await openSettings(hosts);
    await vi.waitFor(() => expect($$(".hosts > li")).toHaveLength(2), { timeout: 5000 });
    const up = $("li[data-host='http://127.0.0.1:11434']");
    expect(up.dataset.up).toBe("1");
    expect(up.querySelector(".state")!.textContent).toBe("up");
    expect(up.querySelector(".models")!.textContent).toBe("models: qwen3:4b, bge-m3:latest");
    const down = $("li[data-host='http://gpu2:11434']");
    expect(down.dataset.up).toBe("0");
    expect(down.querySelector(".state")!.textContent).toMatch(/^down since .+, tried again from .+$/);
    expect(down.querySelector(".why")!.textContent).toContain("connection refused");
  });

  it("says it in Korean", async () => {
    await openSettings(hosts, "ko");
    await vi.waitFor(() => expect($$(".hosts > li")).toHaveLength(2), { timeout: 5000 });
    expect($("li[data-host='http://127.0.0.1:11434'] .state").textContent).toBe("정상");
    expect($("li[data-host='http://gpu2:11434'] .state").textContent).toMatch(/부터 응답 없음, .+부터 다시 시도$/);
  });

  it("shows no list for one host", async () => {
    await openSettings([]);
    await vi.waitFor(() => expect($$("#set-host-status").length).toBe(1), { timeout: 5000 });
    expect($$(".hosts")).toHaveLength(0);
  });
});
