// Typed client for the Go MCPService: the MCP servers section of Settings.
import type { Transport } from "./transport";
import type { MCPServer, MCPServerInput } from "./gotypes.gen";

const S = "MCPService";

export interface McpApi {
  /** list returns the servers; with start, enabled ones are started first. */
  list(start: boolean): Promise<MCPServer[]>;
  /** add saves a server to mcp.json and starts it; returns the new list. */
  add(input: MCPServerInput): Promise<MCPServer[]>;
  remove(name: string): Promise<void>;
  setServer(name: string, enabled: boolean, autoApproveReadOnly: boolean): Promise<void>;
  setTool(name: string, tool: string, enabled: boolean): Promise<void>;
}

function normalise(list: MCPServer[] | null): MCPServer[] {
  return (list ?? []).map((s) => ({ ...s, tools: s.tools ?? [] }));
}

export function mcpApi(t: Transport): McpApi {
  return {
    list: async (start) => normalise(await t.call<MCPServer[] | null>(S, "List", [start])),
    add: async (input) => normalise(await t.call<MCPServer[] | null>(S, "Add", [input])),
    remove: (name) => t.call<void>(S, "Remove", [name]),
    setServer: (name, enabled, auto) => t.call<void>(S, "SetServer", [name, enabled, auto]),
    setTool: (name, tool, enabled) => t.call<void>(S, "SetTool", [name, tool, enabled]),
  };
}

/**
 * splitCommand splits a command line as a shell would for the simple
 * cases people paste: words separated by spaces, "double" or 'single'
 * quotes keeping spaces, a backslash escaping the next character.
 */
export function splitCommand(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quote = "";
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charAt(i);
    if (quote) {
      if (c === quote) quote = "";
      else if (c === "\\" && quote === '"' && i + 1 < line.length) cur += line.charAt(++i);
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      started = true;
    } else if (c === "\\" && i + 1 < line.length) {
      cur += line.charAt(++i);
      started = true;
    } else if (/\s/.test(c)) {
      if (started) out.push(cur);
      cur = "";
      started = false;
    } else {
      cur += c;
      started = true;
    }
  }
  if (started) out.push(cur);
  return out;
}
