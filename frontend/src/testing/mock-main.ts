// Entry of the visual harness (e2e/mock.html): the real App on the
// in-memory FakeBackend, so screens can be looked at without the Go side.
// ?scenario=chat|empty|unreachable|away|model_missing|xss|long|tool (every message asks to run read_file)  &lang=ko  &theme=dark
// &fallback=MODEL (the chosen model qwen3:4b is not installed: MODEL answers)
// &revoked=1 (folders an older version had made readable on import)
// &listfails=1 (Ollama answers, its model list does not: the picker can't check the model)
import { mount } from "svelte";
import "../app.css";
import App from "../App.svelte";
import { makeServices } from "../services";
import { FakeBackend } from "./fakeBackend";

const q = new URLSearchParams(location.search);
const scenario = q.get("scenario") ?? "chat";
const XSS = 'Here you go: <img src=x onerror=alert(1)> and [a link](javascript:alert(1)) <script>alert(2)</script> <a href="javascript:alert(3)">click</a>';
const ANSWER = [
  "Here is a plan for your **café Shorts** video:",
  "",
  "1. Film 5–8 short clips of drinks being made",
  "2. Cut them to the beat in *CapCut*",
  "3. Add captions in Korean and English",
  "",
  "```bash",
  "ffmpeg -i clip.mp4 -vf scale=1080:1920 out.mp4",
  "```",
  "",
  "More at [the CapCut site](https://www.capcut.com).",
].join("\n");

const LIST_FAILS = { code: "ollama_error", message: "list: 500 Internal Server Error" } as const;
const fake = new FakeBackend({
  reachable: scenario !== "unreachable",
  // With a fallback the chosen model is missing, as Status then says.
  modelInstalled: scenario !== "model_missing" && !q.get("fallback") && !q.get("listfails"),
  modelsError: q.get("listfails") ? LIST_FAILS : undefined,
  reply: () => (scenario === "xss" ? XSS : ANSWER),
  tokenDelayMs: Number(q.get("delay") ?? "15"),
  failWith:
    scenario === "failed"
      ? { code: "stream_dropped", message: "ollama closed the connection after 212 tokens", hint: "Check that `ollama serve` is still running, then try again." }
      : scenario === "away"
        ? { code: "ollama_unreachable", message: "ollama is not reachable", hint: "ollama serve", args: { host: "http://127.0.0.1:11434" } }
        : undefined,
  settings: {
    language: q.get("lang") ?? "",
    theme: q.get("theme") ?? "system",
    ...(q.get("fallback") ? { chat_model: "qwen3:4b", fallback_model: q.get("fallback") } : {}),
    folder_grants: q.get("revoked") ? [{ path: "/home/you/notes", allow_hidden: false, allow_secrets: false, granted_at: "2026-11-20T09:00:00Z" }] : [],
    revoked_import_folders: q.get("revoked") ? ["/home/you/projects/café-menu", "/home/you/문서/회의록"] : [],
  } as never,
  fallbackFrom: q.get("fallback") ? "qwen3:4b" : undefined,
  complex: (text) => scenario === "complex" && /video|shorts|영상|쇼츠|plan/i.test(text),
  toolCall: () => scenario === "tool",
  stepDelayMs: Number(q.get("step") ?? "60"),
  mode: q.get("mode") ?? "serve",
  hosts: q.get("hosts")
    ? [
        { url: "http://127.0.0.1:11434", up: true, models: ["qwen3:4b", "bge-m3:latest"], in_flight: 1 },
        { url: "http://gpu-box:11434", up: false, models: [], in_flight: 0, down_since: "2026-11-26T22:01:03Z", retry_at: "2026-11-26T22:01:35Z",
          error: "list: ollama is not reachable: dial tcp 192.168.0.20:11434: connect: connection refused" },
      ]
    : undefined,
});

if (q.get("listfails")) fake.status.error = { ...LIST_FAILS };
// "away": Ollama stops while a reply is written, so the turn fails and the
// check after it finds Ollama gone (the failed reply and the banner by the box).
if (scenario === "away") {
  const calls = fake as unknown as Record<string, (...args: unknown[]) => unknown>;
  const send = calls["ChatService.Send"]!.bind(fake);
  calls["ChatService.Send"] = (...args) => {
    const ack = send(...args);
    fake.status.reachable = false;
    return ack;
  };
}
const day = (d: number) => new Date(Date.now() - d * 86400_000).toISOString();
fake.docs.push(
  { id: "doc-1", title: "휴가 규정.pdf", source: "/home/you/docs/휴가 규정.pdf", kind: "pdf", size: 482_113, pages: 12, chunks: 57, created_at: day(3), updated_at: day(3) },
  { id: "doc-2", title: "Onboarding notes.md", source: "/home/you/docs/onboarding.md", kind: "markdown", size: 8_402, pages: 0, chunks: 9, created_at: day(10), updated_at: day(1) },
);
fake.memories.push(
  { id: "mem-a", text: "Prefers free tools", kind: "preference", origin: "reflection", created_at: day(2), updated_at: day(2) },
  { id: "mem-b", text: "카페를 운영함", kind: "fact", origin: "edited", created_at: day(5), updated_at: day(5) },
  { id: "mem-c", text: "Wanted shorter plans with at most 4 steps", kind: "feedback", origin: "said", created_at: day(7), updated_at: day(6) },
);

if (scenario !== "empty") {
  const titles = ["휴가 규정 요약", "Café Shorts video plan", "123 × 456", "Trip to Busan — packing list"];
  titles.forEach((title, i) => {
    const id = `seed-${i}`;
    fake.sessions.push({ id, title, created_at: day(i + 1), updated_at: day(i + 0.5), message_count: 2, pending_approval: false, model: "" });
    fake.messages.set(id, [
      { id: `${id}-u`, session_id: id, role: "user", content: title, status: "complete", created_at: day(i + 1) },
      { id: `${id}-a`, session_id: id, role: "assistant", content: `About **${title}**…`, status: "complete", created_at: day(i + 1) },
    ]);
  });
}

(window as unknown as { fake: FakeBackend }).fake = fake;
mount(App, { target: document.getElementById("app")!, props: { services: makeServices(fake) } });
