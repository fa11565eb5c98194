// Why an MCP server did not start, in the person's language. The backend
// sends the reason as a code and its particulars (trace args "reason",
// "command", "url", "seconds"; api.MCPServer.reason and reason_args), and
// its English error apart ("error"), which never goes inside a translated
// sentence: it is shown on its own, as a detail, where it tells more.
import { filled } from "./errors";

/** mcpReason is the reason in words, or "" for one this build cannot word (unknown, or a particular missing). */
export function mcpReason(reason: string | undefined | null, args: Record<string, string> | undefined | null): string {
  if (!reason) return "";
  return filled(`mcp.reason.${reason}`, args ?? {});
}
