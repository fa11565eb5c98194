// FakeCore is the transport half of the FakeBackend: the options every
// service's fake reads, the event bus, the calls made, and the dispatch of
// a call to the method named "Service.Method". The services' fakes extend it
// one on top of another (see ../fakeBackend.ts).
import type { HostStatus, ErrorInfo, Settings } from "../../api/gotypes.gen";
import type { Transport } from "../../api/transport";
import { ApiError } from "../../api/errors";

type Handler = (payload: unknown) => void;

export interface FakeOptions {
  reachable?: boolean;
  /** The state of each Ollama host when several are set. */
  hosts?: HostStatus[];
  modelInstalled?: boolean;
  /** reply produces the assistant's text for a prompt. */
  reply?: (text: string) => string;
  /** tokenDelayMs between streamed chunks; 0 streams synchronously-ish. */
  tokenDelayMs?: number;
  settings?: Partial<Settings>;
  /** failWith ends every turn with this error after half the reply. */
  failWith?: ErrorInfo;
  /** complex decides which prompts take the plan → approve → guide path. */
  complex?: (text: string) => boolean;
  /** mode is AppInfo.mode: "serve" (browser) or "desktop". */
  mode?: string;
  /** stepDelayMs between trace steps of the complex path. */
  stepDelayMs?: number;
  /** pullStepMs between the progress events of a download. */
  pullStepMs?: number;
  /** fallbackFrom makes every answer come from settings.fallback_model instead of this chosen model. */
  fallbackFrom?: string;
  /** toolCall decides which prompts ask to run a tool call first. */
  toolCall?: (text: string) => boolean;
  /** modelsError is what SettingsService.Models fails with (Ollama answers, its list does not). */
  modelsError?: ErrorInfo;
}


export class FakeCore implements Transport {
  calls: Array<{ service: string; method: string; args: unknown[] }> = [];
  private handlers = new Map<string, Set<Handler>>();
  protected seq = 0;

  constructor(protected readonly opts: FakeOptions = {}) {}

  protected id(prefix: string): string {
    return `${prefix}-${++this.seq}`;
  }

  emit(event: string, payload: unknown): void {
    for (const h of this.handlers.get(event) ?? []) h(payload);
  }

  on<T>(event: string, handler: (payload: T) => void): () => void {
    let set = this.handlers.get(event);
    if (!set) this.handlers.set(event, (set = new Set()));
    set.add(handler as Handler);
    return () => set.delete(handler as Handler);
  }

  private drops = new Set<(x: number, y: number, paths: string[]) => void>();
  /** onFileDrop is the desktop window's drops by path (Transport.onFileDrop). */
  onFileDrop(handler: (x: number, y: number, paths: string[]) => void): () => void {
    this.drops.add(handler);
    return () => this.drops.delete(handler);
  }
  /** dropPaths drops files at x, y as the desktop window tells it: by their paths. */
  dropPaths(x: number, y: number, paths: string[]): void {
    for (const h of this.drops) h(x, y, paths);
  }

  async call<T>(service: string, method: string, args: unknown[]): Promise<T> {
    this.calls.push({ service, method, args });
    const fn = (this as unknown as Record<string, (...a: unknown[]) => unknown>)[`${service}.${method}`];
    if (!fn) throw new ApiError({ code: "internal", message: `no ${service}.${method}` });
    return (await fn.apply(this, args)) as T;
  }
}
