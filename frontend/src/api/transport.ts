// One Transport interface carries every call and event between the UI and
// the Go backend. The desktop window uses the Wails bindings and runtime
// events; `wayfinder serve` uses HTTP JSON and server-sent events. Which one
// is chosen once, at startup, so no screen ever checks where it runs.
import { ApiError, ErrServerUnreachable, ErrUnauthorized, parseError, toApiError } from "./errors";
import { Reconnected } from "./events";

export interface Transport {
  /** call invokes service.method(...args) in Go; rejects with ApiError. */
  call<T>(service: string, method: string, args: unknown[]): Promise<T>;
  /** on subscribes to a backend event; the result unsubscribes. */
  on<T>(event: string, handler: (payload: T) => void): () => void;
  /**
   * onFileDrop hears files dropped on the desktop window by their paths,
   * x and y where in the page; the result unsubscribes. The browser has
   * none: a page gets a dropped file's content, never its path.
   */
  onFileDrop?(handler: FileDropHandler): () => void;
}

/** FileDropHandler takes where files were dropped in the page, and their paths. */
export type FileDropHandler = (x: number, y: number, paths: string[]) => void;

type BoundMethod = (...args: unknown[]) => Promise<unknown>;

/**
 * The part of window that Wails v2 injects into its webview. Bound services
 * appear under the Go package that declares them: backend/app, so
 * window.go.app.ChatService.Send.
 */
export interface WailsWindow {
  go?: { app?: Record<string, Record<string, BoundMethod> | undefined> };
  runtime?: {
    EventsOn(name: string, cb: (...data: unknown[]) => void): () => void;
    BrowserOpenURL?(url: string): void;
    /** OnFileDrop hears drops by path (desktop.Run enables it); useDropTarget false: anywhere in the page. */
    OnFileDrop?(cb: (x: number, y: number, paths: string[]) => void, useDropTarget: boolean): void;
    OnFileDropOff?(): void;
  };
}

/** WailsTransport calls bound Go methods: window.go.app[Service][Method]. */
export class WailsTransport implements Transport {
  constructor(private readonly win: WailsWindow) {}

  async call<T>(service: string, method: string, args: unknown[]): Promise<T> {
    const fn = this.win.go?.app?.[service]?.[method];
    if (typeof fn !== "function") {
      throw new ApiError({ code: "internal", message: `no binding ${service}.${method}` });
    }
    try {
      return (await fn(...args)) as T;
    } catch (e) {
      throw toApiError(e);
    }
  }

  on<T>(event: string, handler: (payload: T) => void): () => void {
    const rt = this.win.runtime;
    if (!rt) return () => {};
    const off = rt.EventsOn(event, (payload: unknown) => handler(payload as T));
    return typeof off === "function" ? off : () => {};
  }

  private drops = new Set<FileDropHandler>();

  /**
   * onFileDrop takes the Wails runtime's drops by path, anywhere in the
   * page (each handler says whether a drop is its own). The runtime holds
   * one handler at a time and OnFileDropOff drops it whoever set it, so
   * this one hears for every handler and lets go only when none is left:
   * the screen leaving (the chat's box) cannot unhook the one arriving
   * (the Knowledge screen's drop zone), whichever Svelte ends first.
   */
  onFileDrop(handler: FileDropHandler): () => void {
    const rt = this.win.runtime;
    if (!rt?.OnFileDrop) return () => {};
    if (!this.drops.size) rt.OnFileDrop((x, y, paths) => [...this.drops].forEach((h) => h(x, y, paths ?? [])), false);
    const mine: FileDropHandler = (x, y, paths) => handler(x, y, paths);
    this.drops.add(mine);
    return () => {
      if (!this.drops.delete(mine)) return;
      if (!this.drops.size) rt.OnFileDropOff?.();
    };
  }
}

type FetchLike = (input: string, init: RequestInit) => Promise<Response>;
interface EventSourceLike {
  addEventListener(type: string, listener: (ev: MessageEvent) => void): void;
  removeEventListener(type: string, listener: (ev: MessageEvent) => void): void;
  close(): void;
}
type EventSourceFactory = (url: string) => EventSourceLike;

export interface HttpTransportOptions {
  token: string;
  /** Origin prefix for requests; "" means the page's own origin. */
  baseUrl?: string;
  fetch?: FetchLike;
  eventSource?: EventSourceFactory;
}

/**
 * HttpTransport speaks to `wayfinder serve`:
 *   POST {base}/api/{service}/{method}, body = JSON array of args,
 *   Authorization: Bearer <token>; 2xx = JSON result (empty body for void),
 *   non-2xx = JSON ErrorInfo. Events: one EventSource on
 *   {base}/api/events?token=<token> with named events (event: chat.token).
 */
export class HttpTransport implements Transport {
  private readonly base: string;
  private readonly token: string;
  /** tokenGiven is false when the page was opened without ?token= (and none was kept). */
  readonly tokenGiven: boolean;
  private readonly fetchFn: FetchLike;
  private readonly makeSource: EventSourceFactory;
  private source: EventSourceLike | null = null;
  private listeners = 0;
  private reconnectHandlers = new Set<(p: null) => void>();
  private dropped = false;

  constructor(opts: HttpTransportOptions) {
    this.token = opts.token;
    this.tokenGiven = opts.token !== "";
    this.base = (opts.baseUrl ?? "").replace(/\/$/, "");
    this.fetchFn = opts.fetch ?? ((input, init) => fetch(input, init));
    this.makeSource = opts.eventSource ?? ((url) => new EventSource(url));
  }

  async call<T>(service: string, method: string, args: unknown[]): Promise<T> {
    const url = `${this.base}/api/${encodeURIComponent(service)}/${encodeURIComponent(method)}`;
    let res: Response;
    try {
      res = await this.fetchFn(url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Authorization: `Bearer ${this.token}`,
        },
        body: JSON.stringify(args),
      });
    } catch (e) {
      throw new ApiError({
        code: ErrServerUnreachable,
        message: `cannot reach Wayfinder: ${e instanceof Error ? e.message : String(e)}`,
      });
    }
    const text = await res.text();
    if (!res.ok) {
      const info = parseError(text || `HTTP ${res.status}`);
      if (res.status === 401) info.code = ErrUnauthorized;
      throw new ApiError(info);
    }
    if (text.trim() === "") return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ApiError({ code: "internal", message: `bad JSON from ${service}.${method}` });
    }
  }

  private open(): EventSourceLike {
    if (this.source) return this.source;
    const source = this.makeSource(`${this.base}/api/events?token=${encodeURIComponent(this.token)}`);
    // EventSource reconnects by itself; events sent meanwhile are lost, so
    // after a drop the page is told to reload what it shows.
    source.addEventListener("error", () => (this.dropped = true));
    source.addEventListener("open", () => {
      if (!this.dropped) return;
      this.dropped = false;
      for (const h of this.reconnectHandlers) h(null);
    });
    this.source = source;
    return source;
  }

  on<T>(event: string, handler: (payload: T) => void): () => void {
    const source = this.open();
    if (event === Reconnected) {
      const h = handler as (p: null) => void;
      this.reconnectHandlers.add(h);
      this.listeners++;
      return this.release(source, () => this.reconnectHandlers.delete(h));
    }
    const listener = (ev: MessageEvent) => {
      let payload: unknown;
      try {
        payload = JSON.parse(String(ev.data));
      } catch {
        return; // a malformed frame must not take the page down
      }
      handler(payload as T);
    };
    source.addEventListener(event, listener);
    this.listeners++;
    return this.release(source, () => source.removeEventListener(event, listener));
  }

  private release(source: EventSourceLike, remove: () => void): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      remove();
      this.listeners--;
      if (this.listeners === 0 && this.source === source) {
        source.close();
        this.source = null;
      }
    };
  }
}

const TOKEN_KEY = "wayfinder.token";

/**
 * takeToken reads ?token= from the address, keeps it in sessionStorage so a
 * reload still works, and removes it from the address bar so it is not left
 * in history or screenshots.
 */
export function takeToken(win: Window): string {
  const url = new URL(win.location.href);
  const fromUrl = url.searchParams.get("token");
  if (fromUrl) {
    try {
      win.sessionStorage.setItem(TOKEN_KEY, fromUrl);
    } catch {
      // storage can be disabled; the token still works for this page view
    }
    url.searchParams.delete("token");
    win.history.replaceState(win.history.state, "", url.pathname + url.search + url.hash);
    return fromUrl;
  }
  try {
    return win.sessionStorage.getItem(TOKEN_KEY) ?? "";
  } catch {
    return "";
  }
}

/** createTransport picks Wails bindings when present, else HTTP to serve. */
export function createTransport(win: Window & WailsWindow): Transport {
  if (win.go) return new WailsTransport(win);
  return new HttpTransport({ token: takeToken(win) });
}
