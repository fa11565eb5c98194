import { describe, expect, it } from "vitest";
import { splitCommand } from "./mcp";

describe("splitCommand", () => {
  it.each([
    ["npx -y @modelcontextprotocol/server-filesystem /tmp", ["npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"]],
    ['node "/home/me/My Servers/index.js"  --port 3', ["node", "/home/me/My Servers/index.js", "--port", "3"]],
    ["uvx mcp-server-fetch '--user-agent=Way finder'", ["uvx", "mcp-server-fetch", "--user-agent=Way finder"]],
    ["a\\ b c", ["a b", "c"]],
    ['x ""', ["x", ""]],
    ["   ", []],
    ["/문서/서버 실행", ["/문서/서버", "실행"]],
  ])("%s", (line, want) => {
    expect(splitCommand(line)).toEqual(want);
  });
});
