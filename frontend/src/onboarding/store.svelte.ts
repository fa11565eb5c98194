// StatusStore knows whether Ollama answers and the chat model is there. It
// re-checks every few seconds while something is wrong, so onboarding
// disappears by itself once the person has fixed it.
import { parseError } from "../api/errors";
import { Events, Reconnected, subscribe } from "../api/events";
import type { OllamaStatus, PullProgress } from "../api/gotypes.gen";
import type { ErrorInfo } from "../api/errors";
import type { SettingsApi } from "../api/settings";
import type { Transport } from "../api/transport";
import { pullShare } from "./pullStatus";

export const POLL_MS = 3000;

export type Problem = "unreachable" | "model_missing" | null;

/**
 * problemOf is what holds sending by the backend's status. A chat model
 * that is not installed is "model_missing" only when Ollama's list was
 * read: when it was not, whether the model is there is not known, and
 * the person may send (the backend then tries the model, and the fallback
 * model if it is missing; a turn that cannot be answered ends with its
 * own worded error).
 */
export function problemOf(s: OllamaStatus | null): Problem {
  if (!s) return null;
  if (!s.reachable) return "unreachable";
  if (s.chat_model && !s.chat_model.installed && !listUnread(s)) return "model_missing";
  return null;
}

/**
 * listUnread: Ollama answered but its model list could not be read. The
 * backend's CheckStatus then reports the list's own error, where a list
 * that was read reports model_missing or model_no_tools (or nothing).
 */
export function listUnread(s: OllamaStatus | null): boolean {
  const code = s?.error?.code;
  return !!s?.reachable && !!code && code !== "model_missing" && code !== "model_no_tools";
}

/**
 * meaningOff says that search by meaning cannot run now, by the backend's
 * status: no embedding model is set, Ollama does not answer, or its list
 * was read and lacks the model. Passages are then found by their words
 * only (the backend falls back to keywords), and nothing embeds; what is
 * not known (no status yet, a list that could not be read) is not off.
 */
export function meaningOff(s: OllamaStatus | null): boolean {
  if (!s) return false;
  if (!s.reachable || !s.embed_model?.name) return true;
  return !s.embed_model.installed && !listUnread(s);
}

export class StatusStore {
  status = $state<OllamaStatus | null>(null);
  checking = $state(false);
  pull = $state<PullProgress | null>(null);
  pullError = $state<ErrorInfo | null>(null);
  pulling = $state(false);
  /**
   * pullPercent is the bar's figure for the download under way (null:
   * unknown). Over several hosts it only moves forward, though Ollama's
   * figures start again for each host and each layer; a finished
   * download is 100.
   */
  pullPercent = $state<number | null>(null);
  /** checkError is set when Status() itself failed (e.g. the server is gone). */
  checkError = $state<ErrorInfo | null>(null);
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly api: SettingsApi) {}

  get problem(): Problem {
    return problemOf(this.status);
  }

  listen(t: Transport): Array<() => void> {
    return [
      subscribe(t, Events.StatusChanged, (s) => this.set(s)),
      subscribe(t, Reconnected, () => void this.check()),
      subscribe(t, Events.PullProgress, (p) => {
        this.pull = p;
        const share = pullShare(p);
        if (p.done) {
          if (!p.error && !p.cancelled) this.pullPercent = 100;
        } else if ((p.hosts ?? 0) > 1) {
          this.pullPercent = Math.max(this.pullPercent ?? 0, share ?? 0);
        } else {
          this.pullPercent = share;
        }
        if (p.error) {
          this.pullError = p.error;
          this.pulling = false;
          this.failed(p.error);
        }
        if (p.done) {
          this.pulling = false;
          if (p.cancelled) this.pull = null;
          // A download that failed because Ollama went away was checked
          // by failed() just above: one check, not two at once.
          if (!this.checking) void this.check();
        }
      }),
    ];
  }

  private set(s: OllamaStatus): void {
    this.status = s;
    this.schedule();
  }

  /**
   * check asks the backend now; failures count as "unreachable". now is a
   * person's "Check now": Ollama hosts that are down are probed at once,
   * which the polls leave to each host's wait.
   */
  async check(now = false): Promise<void> {
    this.checking = true;
    try {
      const s = await (now ? this.api.checkNow() : this.api.status());
      this.checkError = null;
      this.set(s);
    } catch (e) {
      this.checkError = parseError(e);
      this.set({
        host: this.status?.host ?? "",
        reachable: false,
        version: "",
        chat_model: this.status?.chat_model ?? { name: "", installed: false, capabilities: [] },
        embed_model: this.status?.embed_model ?? { name: "", installed: false, capabilities: [] },
        hosts: this.status?.hosts ?? [],
      });
    } finally {
      this.checking = false;
    }
  }

  /**
   * failed hears of a request to Ollama that failed (a turn, the model
   * list, a download). When Ollama did not answer, the status says so at
   * once and sending waits, where it said ready until a check came back:
   * a check of a host that does not answer takes up to its 5 s timeout.
   * The check that follows corrects it if Ollama answers again. A reply
   * that Ollama left partway (stopped, or its computer asleep) comes as
   * ollama_unreachable too: the backend asks the host once more after a
   * dropped or stalled reply. One that broke off (stream_dropped) or
   * stalled (timeout) with the host still there holds nothing, but the
   * status is checked at once: while it says ready nothing else checks
   * it, and Ollama may be restarting or hung.
   */
  failed(err: ErrorInfo | null | undefined): void {
    const code = err?.code;
    if (code === "ollama_unreachable") {
      if (this.status?.reachable) this.set({ ...this.status, reachable: false, error: { ...err!, code } });
    } else if (code !== "stream_dropped" && code !== "timeout") {
      return;
    }
    if (!this.checking) void this.check();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // An unread list is checked again too: the window learns the models
    // once Ollama lists them.
    if ((this.problem || listUnread(this.status)) && !this.pulling) {
      this.timer = setTimeout(() => void this.check(), POLL_MS);
    }
  }

  async startPull(model: string): Promise<void> {
    this.pulling = true;
    this.pullError = null;
    this.pull = { model, status: "", completed: 0, total: 0, done: false };
    this.pullPercent = null;
    try {
      await this.api.pull(model);
    } catch (e) {
      this.pullError = parseError(e);
      this.pulling = false;
      this.schedule();
      this.failed(this.pullError);
    }
  }

  /** cancelPull stops the download in progress; what Ollama got is kept for a later pull. */
  async cancelPull(): Promise<void> {
    const model = this.pull?.model;
    if (!model || !this.pulling) return;
    try {
      await this.api.cancelPull(model);
    } catch (e) {
      this.pullError = parseError(e);
    }
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
