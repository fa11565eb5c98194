// FakeMCP adds the MCPService: the MCP servers of mcp.json and their tools.
import type { MCPServer, MCPServerInput } from "../../api/gotypes.gen";
import { ApiError, type ErrorInfo } from "../../api/errors";
import { FakeMemory } from "./memory";

export class FakeMCP extends FakeMemory {
  /** mcpServers is mcp.json as the fake keeps it. */
  mcpServers: MCPServer[] = [];
  /** mcpListError is what List answers while mcp.json cannot be read at all. */
  mcpListError: ErrorInfo | null = null;

  "MCPService.List"(start: boolean): MCPServer[] {
    if (this.mcpListError) throw new ApiError(this.mcpListError);
    if (start) for (const s of this.mcpServers) if (s.enabled && s.state === "idle") s.state = "ready";
    return structuredClone(this.mcpServers);
  }
  "MCPService.Add"(input: MCPServerInput): MCPServer[] {
    if (this.mcpServers.some((s) => s.name === input.name)) throw new ApiError({ code: "invalid_input", message: `an MCP server named "${input.name}" is already there`, args: { case: "mcp_taken", name: input.name } });
    const command = [input.command, ...(input.args ?? [])].join(" ").trim();
    this.mcpServers.push({ name: input.name, transport: input.url ? "http" : "stdio", command, url: input.url, enabled: true, auto_approve_read_only: false, state: "ready", tools: [] });
    return structuredClone(this.mcpServers);
  }
  "MCPService.Remove"(name: string): void {
    this.mcpServers = this.mcpServers.filter((s) => s.name !== name);
  }
  "MCPService.SetServer"(name: string, enabled: boolean, auto: boolean): void {
    const s = this.mcpServers.find((x) => x.name === name);
    if (s) Object.assign(s, { enabled, auto_approve_read_only: auto, state: enabled ? "idle" : "off" });
  }
  "MCPService.SetTool"(name: string, tool: string, enabled: boolean): void {
    const t = this.mcpServers.find((x) => x.name === name)?.tools.find((x) => x.name === tool);
    if (t) t.enabled = enabled;
  }

}
