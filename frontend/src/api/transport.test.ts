import { describe, expect, it, vi } from "vitest";
import { ApiError } from "./errors";
import { createTransport, HttpTransport, takeToken, WailsTransport, type WailsWindow } from "./transport";

function jsonResponse(status: number, body: string): Response {
  return new Response(body, { status, headers: { "Content-Type": "application/json" } });
}

class FakeEventSource {
  static last: FakeEventSource | null = null;
  listeners = new Map<string, Set<(ev: MessageEvent) => void>>();
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.last = this;
  }
  addEventListener(type: string, l: (ev: MessageEvent) => void) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)!.add(l);
  }
  removeEventListener(type: string, l: (ev: MessageEvent) => void) {
    this.listeners.get(type)?.delete(l);
  }
  close() {
    this.closed = true;
  }
  dispatch(type: string, data: string) {
    for (const l of this.listeners.get(type) ?? []) l(new MessageEvent(type, { data }));
  }
}

describe("createTransport", () => {
  it("uses Wails bindings when window.go exists", () => {
    const win = { go: { app: {} }, runtime: { EventsOn: () => () => {} } } as unknown as Window & WailsWindow;
    expect(createTransport(win)).toBeInstanceOf(WailsTransport);
  });
  it("uses HTTP when there are no bindings", () => {
    expect(createTransport(window)).toBeInstanceOf(HttpTransport);
  });
});

describe("WailsTransport", () => {
  it("calls window.go.app[service][method] with the args", async () => {
    const fn = vi.fn(async (a: unknown, b: unknown) => ({ got: [a, b] }));
    const tr = new WailsTransport({ go: { app: { ChatService: { Send: fn as never } } } });
    await expect(tr.call("ChatService", "Send", ["", "hi"])).resolves.toEqual({ got: ["", "hi"] });
    expect(fn).toHaveBeenCalledWith("", "hi");
  });
  it("parses a rejected ErrorInfo JSON string", async () => {
    const fn = async () => {
      throw '{"code":"model_missing","message":"model llama3.2:3b not found","hint":"ollama pull llama3.2:3b"}';
    };
    const tr = new WailsTransport({ go: { app: { ChatService: { Send: fn } } } });
    const err = await tr.call("ChatService", "Send", []).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).info).toEqual({
      code: "model_missing",
      message: "model llama3.2:3b not found",
      hint: "ollama pull llama3.2:3b",
    });
  });
  it("falls back to internal for a plain string rejection", async () => {
    const tr = new WailsTransport({ go: { app: { S: { M: async () => Promise.reject("boom") } } } });
    const err = (await tr.call("S", "M", []).catch((e: unknown) => e)) as ApiError;
    expect(err.info).toEqual({ code: "internal", message: "boom" });
  });
  it("rejects a missing binding with a clear error", async () => {
    const tr = new WailsTransport({ go: { app: {} } });
    const err = (await tr.call("Nope", "X", []).catch((e: unknown) => e)) as ApiError;
    expect(err.info.message).toContain("Nope.X");
  });
  it("subscribes through runtime.EventsOn and unsubscribes", () => {
    const off = vi.fn();
    let cb: ((...d: unknown[]) => void) | undefined;
    const tr = new WailsTransport({
      runtime: {
        EventsOn: (name, f) => {
          expect(name).toBe("chat.token");
          cb = f;
          return off;
        },
      },
    });
    const got: unknown[] = [];
    const unsub = tr.on("chat.token", (p) => got.push(p));
    cb!({ text: "a" });
    expect(got).toEqual([{ text: "a" }]);
    unsub();
    expect(off).toHaveBeenCalledOnce();
  });
  it("hears files dropped anywhere on the window by path through runtime.OnFileDrop, and stops", () => {
    const off = vi.fn();
    let cb: ((x: number, y: number, paths: string[]) => void) | undefined;
    const tr = new WailsTransport({
      runtime: {
        EventsOn: () => () => {},
        OnFileDrop: (f, useDropTarget) => {
          expect(useDropTarget).toBe(false); // every drop: the page says which are its own
          cb = f;
        },
        OnFileDropOff: off,
      },
    });
    const got: unknown[] = [];
    const unsub = tr.onFileDrop((x, y, paths) => got.push([x, y, paths]));
    cb!(10, 20, ["/home/you/큰 보고서.pdf"]);
    expect(got).toEqual([[10, 20, ["/home/you/큰 보고서.pdf"]]]);
    unsub();
    expect(off).toHaveBeenCalledOnce();
  });
});

describe("WailsTransport drops by path, heard by two screens", () => {
  // The runtime holds one drop handler and OnFileDropOff drops it whoever
  // set it: the chat's box leaving must not unhook the Knowledge screen's
  // drop zone arriving, in whichever order Svelte ends and starts them.
  it("hears for every handler, and lets go of the runtime only when the last leaves", () => {
    const off = vi.fn();
    const set = vi.fn();
    let cb: ((x: number, y: number, paths: string[]) => void) | undefined;
    const tr = new WailsTransport({
      runtime: {
        EventsOn: () => () => {},
        OnFileDrop: (f) => {
          set();
          cb = f;
        },
        OnFileDropOff: off,
      },
    });
    const chat: string[][] = [];
    const kb: string[][] = [];
    const offChat = tr.onFileDrop((_x, _y, paths) => chat.push(paths));
    const offKb = tr.onFileDrop((_x, _y, paths) => kb.push(paths));
    offChat();
    offChat(); // twice is once
    expect(off).not.toHaveBeenCalled();
    cb!(1, 2, ["/home/you/보고서.pdf"]);
    expect(chat).toEqual([]);
    expect(kb).toEqual([["/home/you/보고서.pdf"]]);
    offKb();
    expect(off).toHaveBeenCalledOnce();
    tr.onFileDrop(() => {});
    expect(set).toHaveBeenCalledTimes(2); // set again once none was left
  });
});

describe("HttpTransport", () => {
  it("POSTs the args as a JSON array with the bearer token", async () => {
    const fetch = vi.fn(async () => jsonResponse(200, '{"id":"s1"}'));
    const tr = new HttpTransport({ token: "tok", fetch });
    await expect(tr.call("ChatService", "Rename", ["s1", "새 제목"])).resolves.toEqual({ id: "s1" });
    expect(fetch).toHaveBeenCalledWith("/api/ChatService/Rename", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer tok" },
      body: '["s1","새 제목"]',
    });
  });
  it("returns undefined for an empty 200 body (void methods)", async () => {
    const tr = new HttpTransport({ token: "t", fetch: async () => new Response("", { status: 200 }) });
    await expect(tr.call("ChatService", "Stop", ["s1"])).resolves.toBeUndefined();
  });
  it.each([
    [400, '{"code":"message_too_long","message":"too long","hint":"split it"}', { code: "message_too_long", message: "too long", hint: "split it" }],
    [409, '{"code":"busy","message":"a turn is running"}', { code: "busy", message: "a turn is running" }],
    [401, "unauthorized", { code: "unauthorized", message: "unauthorized" }],
    [500, "", { code: "internal", message: "HTTP 500" }],
  ])("turns HTTP %i into ErrorInfo", async (status, body, want) => {
    const tr = new HttpTransport({ token: "t", fetch: async () => jsonResponse(status, body) });
    const err = (await tr.call("S", "M", []).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.info).toEqual(want);
  });
  it("reports a dead server as server_unreachable", async () => {
    const tr = new HttpTransport({ token: "t", fetch: async () => Promise.reject(new TypeError("Failed to fetch")) });
    const err = (await tr.call("S", "M", []).catch((e: unknown) => e)) as ApiError;
    expect(err.info.code).toBe("server_unreachable");
  });
  it("shares one EventSource for named events and closes it with the last listener", () => {
    const tr = new HttpTransport({ token: "a b", baseUrl: "http://127.0.0.1:9/", eventSource: (u) => new FakeEventSource(u) });
    const tokens: unknown[] = [];
    const status: unknown[] = [];
    const off1 = tr.on("chat.token", (p) => tokens.push(p));
    const off2 = tr.on("ollama.status", (p) => status.push(p));
    const es = FakeEventSource.last!;
    expect(es.url).toBe("http://127.0.0.1:9/api/events?token=a%20b");
    es.dispatch("chat.token", '{"text":"안녕"}');
    es.dispatch("chat.token", "not json");
    es.dispatch("ollama.status", '{"reachable":true}');
    expect(tokens).toEqual([{ text: "안녕" }]);
    expect(status).toEqual([{ reachable: true }]);
    off1();
    off1();
    expect(es.closed).toBe(false);
    off2();
    expect(es.closed).toBe(true);
  });
});

describe("takeToken", () => {
  it("saves the token, strips it from the address, and survives a reload", () => {
    window.history.replaceState(null, "", "/?token=secret123&x=1#s=abc");
    expect(takeToken(window)).toBe("secret123");
    expect(window.location.search).toBe("?x=1");
    expect(window.location.hash).toBe("#s=abc");
    expect(window.sessionStorage.getItem("wayfinder.token")).toBe("secret123");
    window.history.replaceState(null, "", "/");
    expect(takeToken(window)).toBe("secret123");
  });
});
