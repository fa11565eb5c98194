import { afterEach, describe, expect, it, vi } from "vitest";
import { $, $$, cleanup, click, fill, key, start } from "../testing/ui";
import type { FakeBackend } from "../testing/fakeBackend";

afterEach(cleanup);

function servers(fake: FakeBackend) {
  fake.mcpServers = [
    {
      name: "files", transport: "stdio", command: "npx -y @modelcontextprotocol/server-filesystem /home/me", enabled: true, auto_approve_read_only: false, state: "ready",
      tools: [
        { name: "read_text_file", full_name: "files__read_text_file", description: "Read a file.", enabled: true, read_only: true },
        { name: "write_file", full_name: "files__write_file", description: "Write a file.", enabled: true, read_only: false },
      ],
    },
    {
      name: "weather", transport: "stdio", command: "/opt/weather-mcp", enabled: true, auto_approve_read_only: false, state: "failed",
      error: "stopped: the server closed the connection", reason: "stopped", stderr: "missing API key: set WEATHER_KEY", retry_in: 4, tools: [],
    },
  ];
}

async function openSettings(prepare?: (fake: FakeBackend) => void) {
  const ctx = await start();
  prepare?.(ctx.fake);
  click(`button[aria-label="Settings"]`);
  await vi.waitFor(() => expect($$(".mcp").length).toBe(1));
  return ctx;
}

describe("MCP servers in Settings", () => {
  it("lists servers with their state, tools and why one failed", async () => {
    await openSettings(servers);
    await vi.waitFor(() => expect($$(".servers > li")).toHaveLength(2));
    expect($("li[data-server='files'] .state").textContent).toBe("running");
    expect($$("li[data-server='files'] .tools li").map((e) => e.dataset.tool)).toEqual(["files__read_text_file", "files__write_file"]);
    expect($("li[data-server='files'] li[data-tool='files__read_text_file'] .badge").textContent).toBe("read-only");
    const failed = $("li[data-server='weather']");
    expect(failed.querySelector(".why")!.textContent).toBe("It did not start: it stopped Wayfinder tries again in 4 s.");
    // The error itself is shown apart, as the server or the system gave it.
    expect(failed.querySelector(".error-text")!.textContent).toBe("stopped: the server closed the connection");
    expect(failed.querySelector(".stderr:not(.error-text)")!.textContent).toBe("missing API key: set WEATHER_KEY");
  });

  it("says why a server failed in Korean, its English error apart", async () => {
    const { fake } = await start({ settings: { language: "ko" } });
    {
      servers(fake);
      fake.mcpServers[1] = { ...fake.mcpServers[1]!, error: "run /opt/weather-mcp: fork/exec /opt/weather-mcp: no such file or directory", reason: "command_missing", reason_args: { command: "/opt/weather-mcp" }, stderr: "" };
      fake.mcpServers.push({ name: "odd", transport: "stdio", command: "/opt/odd", enabled: true, auto_approve_read_only: false, state: "failed", error: "something only Go says", tools: [] });
    }
    click(`button[aria-label="설정"]`);
    await vi.waitFor(() => expect($$(".servers > li")).toHaveLength(3), { timeout: 5000 });
    const why = (name: string) => $(`li[data-server='${name}'] .why`).textContent!;
    await vi.waitFor(() => expect(why("weather")).toBe("시작하지 못했어요: 실행할 프로그램이 없음: /opt/weather-mcp 4초 뒤에 다시 시도해요."), { timeout: 5000 });
    expect(why("odd")).toBe("시작하지 못했어요.");
    expect($("li[data-server='odd'] .error-text").textContent).toBe("something only Go says");
    expect($("li[data-server='weather'] .error-text").textContent).toContain("no such file or directory");
  });

  it("switches a tool, a server and read-only auto-run, and removes after asking", async () => {
    const { fake } = await openSettings(servers);
    await vi.waitFor(() => expect($$(".servers > li")).toHaveLength(2));
    click($("li[data-tool='files__write_file'] input[type=checkbox]"));
    await vi.waitFor(() => expect(fake.mcpServers[0]!.tools[1]!.enabled).toBe(false));
    expect(fake.calls.filter((c) => c.method === "SetTool").map((c) => c.args)).toEqual([["files", "write_file", false]]);
    const idle = () => expect($(".mcp").getAttribute("aria-busy")).toBe("false");
    await vi.waitFor(idle);
    click($$("li[data-server='files'] .check input")[1]!); // read-only tools without asking
    await vi.waitFor(() => expect(fake.mcpServers[0]!.auto_approve_read_only).toBe(true));
    await vi.waitFor(idle);
    click($$("li[data-server='weather'] .check input")[0]!); // off
    await vi.waitFor(() => expect($("li[data-server='weather'] .state").textContent).toBe("off"));
    await vi.waitFor(idle);
    click("li[data-server='weather'] button.remove");
    expect(fake.mcpServers).toHaveLength(2); // it asks first
    click("li[data-server='weather'] button.remove-yes");
    await vi.waitFor(() => expect($$(".servers > li")).toHaveLength(1));
    expect(fake.mcpServers.map((s) => s.name)).toEqual(["files"]);
  });

  it("adds a command with quoted arguments, or a URL, with Enter", async () => {
    const { fake } = await openSettings();
    await vi.waitFor(() => expect($(".mcp .none").textContent).toContain("No MCP servers"));
    fill("#mcp-name", "notes");
    fill("#mcp-command", `node "/home/me/My Servers/notes.js" --ro`);
    key($("#mcp-command"), "Enter");
    await vi.waitFor(() => expect($$(".servers > li")).toHaveLength(1));
    expect(fake.calls.find((c) => c.method === "Add")!.args[0]).toMatchObject({ name: "notes", command: "node", args: ["/home/me/My Servers/notes.js", "--ro"], url: "" });
    expect(($("#mcp-name") as HTMLInputElement).value).toBe("");
    expect($$("dialog[open]")).toHaveLength(1); // Enter did not save and close Settings
    fill("#mcp-name", "remote");
    fill("#mcp-command", "https://mcp.example.com/mcp");
    click(".add-server");
    await vi.waitFor(() => expect($$(".servers > li")).toHaveLength(2));
    expect(fake.calls.filter((c) => c.method === "Add")[1]!.args[0]).toMatchObject({ name: "remote", command: "", args: [], url: "https://mcp.example.com/mcp" });
    // A name taken is refused in words of the window's own, naming it.
    fill("#mcp-name", "remote");
    fill("#mcp-command", "x");
    click(".add-server");
    await vi.waitFor(() => expect($(".mcp [role=alert] .detail").textContent).toBe("There is already an MCP server named remote."));
    expect($(".mcp [role=alert] .hint").textContent).toBe("Choose another name, or remove the one there first.");
    expect($(".mcp").textContent).not.toContain("already there");
  });
});
