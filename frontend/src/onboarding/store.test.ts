import { afterEach, describe, expect, it, vi } from "vitest";
import { settingsApi } from "../api/settings";
import { FakeBackend } from "../testing/fakeBackend";
import { listUnread, POLL_MS, problemOf, StatusStore } from "./store.svelte";

afterEach(() => {
  vi.useRealTimers();
});

describe("StatusStore", () => {
  it("names the first problem", () => {
    const ok = new FakeBackend().status;
    expect(problemOf(null)).toBeNull();
    expect(problemOf(ok)).toBeNull();
    expect(problemOf({ ...ok, reachable: false })).toBe("unreachable");
    expect(problemOf({ ...ok, chat_model: { ...ok.chat_model, installed: false } })).toBe("model_missing");
    const missing = { ...ok, chat_model: { ...ok.chat_model, installed: false } };
    expect(problemOf({ ...missing, error: { code: "model_missing", message: "The chat model llama3.2:3b is not downloaded yet." } })).toBe("model_missing");
    // Ollama answered but its list did not: the model may well be there.
    expect(problemOf({ ...missing, error: { code: "ollama_error", message: "list: 500 Internal Server Error" } })).toBeNull();
    expect(listUnread({ ...missing, error: { code: "ollama_error", message: "list: 500 Internal Server Error" } })).toBe(true);
    expect(listUnread({ ...missing, reachable: false, error: { code: "ollama_unreachable", message: "connection refused" } })).toBe(false);
    expect(listUnread({ ...ok, error: { code: "model_no_tools", message: "cannot call tools" } })).toBe(false);
  });

  it.each([
    ["ollama_unreachable", "unreachable", 1],
    // Broke off or stalled with Ollama still there: checked, not held.
    ["stream_dropped", null, 1],
    ["timeout", null, 1],
    ["model_no_tools", null, 0],
    ["model_out_of_memory", null, 0],
    ["invalid_input", null, 0],
    ["internal", null, 0],
  ] as const)("a request that failed with %s says Ollama is down at once: %s (checks: %s)", async (code, problem, checks) => {
    vi.useFakeTimers();
    const fake = new FakeBackend();
    const s = new StatusStore(settingsApi(fake));
    await s.check();
    expect(s.problem).toBeNull();
    const before = fake.calls.length;
    s.failed({ code, message: "failed" });
    expect(s.problem).toBe(problem);
    expect(fake.calls.length - before).toBe(checks);
    // The check that follows says Ollama answers: ready again.
    await vi.advanceTimersByTimeAsync(0);
    expect(s.problem).toBeNull();
    s.stop();
  });

  it("checks again while Ollama's list cannot be read, and stops once it is", async () => {
    vi.useFakeTimers();
    const fake = new FakeBackend();
    fake.status.chat_model.installed = false;
    fake.status.error = { code: "ollama_error", message: "list: 500 Internal Server Error" };
    const s = new StatusStore(settingsApi(fake));
    await s.check();
    expect(s.problem).toBeNull();
    const polls = () => fake.calls.filter((c) => c.method === "Status").length;
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(polls()).toBe(2);
    fake.status.chat_model.installed = true;
    fake.status.error = null;
    await vi.advanceTimersByTimeAsync(POLL_MS * 3);
    expect(polls()).toBe(3);
    s.stop();
  });

  it("re-polls every 3 s while Ollama is down and recovers by itself", async () => {
    vi.useFakeTimers();
    const fake = new FakeBackend({ reachable: false });
    const s = new StatusStore(settingsApi(fake));
    await s.check();
    expect(s.problem).toBe("unreachable");
    const polls = () => fake.calls.filter((c) => c.method === "Status").length;
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(polls()).toBe(2);
    fake.status.reachable = true;
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(s.problem).toBeNull();
    await vi.advanceTimersByTimeAsync(POLL_MS * 3);
    expect(polls()).toBe(3); // healthy: no more polling
    s.stop();
  });

  it("pulls a missing model with progress and then clears the problem", async () => {
    const fake = new FakeBackend({ modelInstalled: false });
    const s = new StatusStore(settingsApi(fake));
    s.listen(fake);
    await s.check();
    expect(s.problem).toBe("model_missing");
    const seen: number[] = [];
    fake.on<{ completed: number }>("models.pull_progress", (p) => seen.push(p.completed));
    await s.startPull("llama3.2:3b");
    expect(s.pulling).toBe(true);
    await vi.waitFor(() => expect(s.problem).toBeNull(), { timeout: 2000 });
    expect(s.pulling).toBe(false);
    expect(seen.length).toBeGreaterThan(2);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    s.stop();
  });

  it("keeps one bar over several hosts: it never starts again for the next host or layer", async () => {
    const fake = new FakeBackend({ modelInstalled: false, pullStepMs: 60_000 });
    const s = new StatusStore(settingsApi(fake));
    s.listen(fake);
    await s.check();
    const seen: Array<number | null> = [];
    const on = (p: object) => {
      fake.emit("models.pull_progress", { model: "llama3.2:3b", done: false, ...p });
      seen.push(s.pullPercent);
    };
    const a = { host: "http://gpu1:11434", host_index: 1, hosts: 2 };
    const b = { host: "http://gpu2:11434", host_index: 2, hosts: 2 };
    on({ ...a, status: "pulling manifest", completed: 0, total: 0 });
    on({ ...a, status: "pulling 6a0746a1ec1a", completed: 500, total: 1000 });
    on({ ...a, status: "pulling 6a0746a1ec1a", completed: 1000, total: 1000 });
    on({ ...a, status: "pulling 966de95ca8a6", completed: 0, total: 10 }); // a small layer: Ollama starts again
    on({ ...b, status: "pulling manifest", completed: 0, total: 0 }); // the next host: so does it
    on({ ...b, status: "pulling 6a0746a1ec1a", completed: 500, total: 1000 });
    on({ ...b, status: "verifying sha256 digest", completed: 0, total: 0 });
    on({ status: "success", completed: 0, total: 0, done: true });
    expect(seen).toEqual([0, 25, 50, 50, 50, 75, 75, 100]);
    // The next download starts from nothing.
    await s.startPull("qwen3:4b");
    expect(s.pullPercent).toBeNull();
    s.stop();
  });

  it.each([
    ["ollama_unreachable", { code: "ollama_unreachable", message: "connection refused" }],
    ["stream_dropped", { code: "stream_dropped", message: "stream ended early" }],
    ["ollama_error", { code: "ollama_error", message: "pull: 500" }],
    ["success", undefined],
  ] as const)("checks Ollama once when a download ends (%s)", async (_name, error) => {
    const fake = new FakeBackend({ modelInstalled: false, pullStepMs: 60_000 });
    const s = new StatusStore(settingsApi(fake));
    s.listen(fake);
    await s.check();
    const polls = () => fake.calls.filter((c) => c.method === "Status").length;
    const before = polls();
    fake.emit("models.pull_progress", { model: "llama3.2:3b", status: error ? "error" : "success", completed: 0, total: 0, done: true, error });
    await vi.waitFor(() => expect(s.checking).toBe(false));
    expect(polls() - before).toBe(1);
    expect(s.pulling).toBe(false);
    s.stop();
  });

  it("treats a failing Status call as unreachable", async () => {
    const fake = new FakeBackend();
    fake.call = async () => Promise.reject(new Error("Failed to fetch"));
    const s = new StatusStore(settingsApi(fake));
    await s.check();
    expect(s.problem).toBe("unreachable");
    s.stop();
  });
});
