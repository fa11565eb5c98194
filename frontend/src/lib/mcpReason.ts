// Why an MCP server did not start, in the person's language. The backend
// sends the reason as a code and its particulars (trace args "reason",
// "command", "url", "seconds"; api.MCPServer.reason and reason_args), and
// its English error apart ("error"), which never goes inside a translated
// sentence: it is shown on its own, as a detail, where it tells more.
import { filled } from "./errors";
import type { MCPProblem } from "../api/gotypes.gen";

/** mcpReason is the reason in words, or "" for one this build cannot word (unknown, or a particular missing). */
export function mcpReason(reason: string | undefined | null, args: Record<string, string> | undefined | null): string {
  if (!reason) return "";
  return filled(`mcp.reason.${reason}`, args ?? {});
}

/**
 * mcpProblem is one mistake of an mcp.json entry in the person's language
 * ("Line 7: The MCP server web needs a command or an address."), from its
 * code and particulars; the backend's English when this build cannot word
 * it.
 */
export function mcpProblem(p: MCPProblem): string {
  const args: Record<string, string> = { ...(p.args ?? {}) };
  if (args.want) args.want = filled(`mcp.kind.${args.want}`, {}) || args.want;
  const text = filled(`error.invalid_input.case.${p.code}`, args) || p.message;
  // A sentence that names the line itself (mcp_syntax) gets no prefix.
  const own = filled(`error.invalid_input.case.${p.code}`, { ...args, line: "\u0000" }).includes("\u0000");
  return (args.line && !own && filled("mcp.problemAt", { line: args.line, problem: text })) || text;
}

/**
 * unreadableForm is the suffix of the sentence that says mcp.json could
 * not be read at all (trace mcp_unreadable, "trace.say.mcp_unreadable" and
 * "progress.mcpUnreadable"): ".syntax" when it is not JSON at a line and
 * column, ".kept" when servers set up before the edit keep running — as
 * the backend chooses (agent.Variant).
 */
export function unreadableForm(args: Record<string, string> | undefined | null): string {
  let form = "";
  if (args?.case === "mcp_syntax" && args.line && args.column) form += ".syntax";
  if (args?.servers) form += ".kept";
  return form;
}
