// Errors from either transport become one shape, ErrorInfo, so screens never
// care whether they run in the desktop window or in a browser.
import type { ErrorCode, ErrorInfo as GoErrorInfo } from "./gotypes.gen";

/** Code used when the page cannot reach the Wayfinder process itself. */
export const ErrServerUnreachable = "server_unreachable" as const;
/** Code used when serve mode rejects the page's token (an old or copied URL). */
export const ErrUnauthorized = "unauthorized" as const;

/**
 * ErrorInfo as the UI handles it: the backend's codes plus two that only the
 * page itself can detect (the server is gone, the token is wrong).
 */
export type UiErrorCode = ErrorCode | typeof ErrServerUnreachable | typeof ErrUnauthorized;
export type ErrorInfo = Omit<GoErrorInfo, "code" | "hint"> & { code: UiErrorCode; hint?: string };

/** ApiError carries the backend's ErrorInfo through a rejected promise. */
export class ApiError extends Error {
  readonly info: ErrorInfo;
  constructor(info: ErrorInfo) {
    super(info.message);
    this.name = "ApiError";
    this.info = info;
  }
  get code(): UiErrorCode {
    return this.info.code;
  }
}

function isErrorInfo(v: unknown): v is ErrorInfo {
  return (
    typeof v === "object" &&
    v !== null &&
    typeof (v as ErrorInfo).code === "string" &&
    typeof (v as ErrorInfo).message === "string"
  );
}

function fromString(s: string): ErrorInfo {
  const trimmed = s.trim();
  if (trimmed.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (isErrorInfo(parsed)) return normalise(parsed);
    } catch {
      // not JSON after all: fall through to a plain message
    }
  }
  return { code: "internal", message: trimmed || "Unknown error" };
}

function normalise(info: ErrorInfo): ErrorInfo {
  const out: ErrorInfo = { code: info.code, message: info.message };
  if (info.hint) out.hint = info.hint;
  // The particulars (a model, a host, a path) the window words the error with.
  if (info.args && typeof info.args === "object") out.args = info.args;
  // A refused decision says what waits now (plan_changed, tool_call_changed).
  if (info.awaiting) out.awaiting = info.awaiting;
  // A refused Save: each value beside its field.
  if (Array.isArray(info.fields)) out.fields = info.fields;
  return out;
}

/**
 * parseError turns whatever a transport rejected with into ErrorInfo. Wails
 * rejects bound calls with ErrorInfo itself (the backend sets Wails'
 * ErrorFormatter); a string is parsed as its JSON in case an older shell
 * sends one; anything else falls back to {code: "internal"}.
 */
export function parseError(raw: unknown): ErrorInfo {
  if (raw instanceof ApiError) return raw.info;
  if (isErrorInfo(raw)) return normalise(raw);
  if (typeof raw === "string") return fromString(raw);
  if (raw instanceof Error) return fromString(raw.message);
  return { code: "internal", message: String(raw) };
}

/** toApiError is parseError wrapped for rethrowing. */
export function toApiError(raw: unknown): ApiError {
  return raw instanceof ApiError ? raw : new ApiError(parseError(raw));
}
