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

// A broken mcp.json as `wayfinder serve` lists it: two entries with
// mistakes (one with two of them) beside a server that runs.
function broken(fake: FakeBackend) {
  servers(fake);
  fake.mcpServers.push(
    { name: "old-sse", transport: "", enabled: false, auto_approve_read_only: false, state: "invalid", tools: [],
      problems: [{ code: "mcp_transport", args: { name: "old-sse", transport: "sse", line: "7" }, message: `server "old-sse": transport "sse" is not one Wayfinder speaks` }] },
    { name: "web", transport: "", enabled: false, auto_approve_read_only: false, state: "invalid", tools: [],
      problems: [
        { code: "mcp_url", args: { name: "web", url: "ftp://host/mcp", line: "9" }, message: "x" },
        { code: "mcp_field", args: { name: "web", field: "args", want: "list", line: "9" }, message: "x" },
        { code: "mcp_field", args: { name: "web", field: "env", want: "textObject", line: "10" }, message: "x" },
      ] },
    { name: "twice", transport: "", enabled: false, auto_approve_read_only: false, state: "invalid", tools: [],
      problems: [{ code: "mcp_duplicate", args: { name: "twice", count: "2", line: "11" }, message: "x" }] },
  );
}

describe("a broken mcp.json in Settings", () => {
  const problems = (name: string) => $$(`li[data-server='${name}'] .problem`).map((e) => e.textContent);

  it("words each mistake on its own line, with the server and the line, beside the servers that run", async () => {
    await openSettings(broken);
    await vi.waitFor(() => expect($$(".servers > li")).toHaveLength(5), { timeout: 5000 });
    expect(problems("old-sse")).toEqual(["Line 7: The MCP server old-sse asks for a transport Wayfinder does not speak: sse"]);
    expect(problems("web")).toEqual([
      "Line 9: Not an http:// or https:// address: ftp://host/mcp",
      "Line 9: In the MCP server web, \"args\" must be a list [ … ].",
      "Line 10: In the MCP server web, \"env\" must be an object of texts in quotes { \"KEY\": \"…\" }.",
    ]);
    expect(problems("twice")).toEqual(["Line 11: The MCP server twice is in mcp.json 2 times, so none of them starts."]);
    expect($("li[data-server='web'] .state").textContent).toBe("has mistakes");
    expect($(".invalid-lead").textContent).toContain("those servers do not start, the others do");
    // The server that is right still runs and can be switched.
    expect($("li[data-server='files'] .state").textContent).toBe("running");
    expect($$("li[data-server='web'] input[type=checkbox]")).toHaveLength(0);
  });

  it("removes an entry with mistakes after asking, and still switches the servers that are right", async () => {
    const { fake } = await openSettings(broken);
    await vi.waitFor(() => expect($$(".servers > li")).toHaveLength(5), { timeout: 5000 });
    expect($(".invalid-lead").textContent).toContain("servers can still be added and changed");
    click("li[data-server='web'] button.remove");
    expect($("li[data-server='web'] .confirm").textContent).toContain("Remove web from mcp.json?");
    expect(fake.mcpServers).toHaveLength(5); // it asks first
    click("li[data-server='web'] button.remove-yes");
    await vi.waitFor(() => expect($$(".servers > li")).toHaveLength(4), { timeout: 5000 });
    expect(fake.calls.filter((c) => c.method === "Remove").map((c) => c.args)).toEqual([["web"]]);
    await vi.waitFor(() => expect($(".mcp").getAttribute("aria-busy")).toBe("false"), { timeout: 5000 });
    click($$("li[data-server='files'] .check input")[0]!); // off, beside the entries with mistakes
    await vi.waitFor(() => expect($("li[data-server='files'] .state").textContent).toBe("off"), { timeout: 5000 });
    expect($$(".mcp .banner")).toHaveLength(0);
  });

  it("says the same in Korean", async () => {
    const { fake } = await start({ settings: { language: "ko" } });
    broken(fake);
    click(`button[aria-label="설정"]`);
    await vi.waitFor(() => expect($$(".servers > li")).toHaveLength(5), { timeout: 5000 });
    expect(problems("old-sse")).toEqual(["7번째 줄: MCP 서버 old-sse의 전송 방식은 Wayfinder가 지원하지 않습니다: sse"]);
    expect(problems("web")).toEqual([
      "9번째 줄: http:// 또는 https:// 주소가 아닙니다: ftp://host/mcp",
      "9번째 줄: MCP 서버 web의 \"args\"는 목록 [ … ]여야 합니다.",
      "10번째 줄: MCP 서버 web의 \"env\"는 따옴표로 묶은 글을 담은 객체 { \"KEY\": \"…\" }여야 합니다.",
    ]);
    expect(problems("twice")).toEqual(["11번째 줄: MCP 서버 twice이(가) mcp.json에 2번 있어 어느 것도 시작하지 않습니다."]);
    expect($("li[data-server='web'] .state").textContent).toBe("설정 오류");
    expect($("li[data-server='web'] button.remove").getAttribute("aria-label")).toBe("MCP 서버 web 삭제");
  });

  it("says where mcp.json is not JSON, in English and Korean, without the parser's English", async () => {
    for (const lang of ["en", "ko"] as const) {
      const { fake } = await start({ settings: { language: lang } });
      fake.mcpListError = { code: "invalid_input", message: "mcp.json: not valid JSON at line 4, column 5: invalid character '\"' after object key:value pair",
        args: { case: "mcp_syntax", line: "4", column: "5" } };
      click(`button[aria-label="${lang === "ko" ? "설정" : "Settings"}"]`);
      await vi.waitFor(() => expect($$(".mcp .banner").length).toBe(1), { timeout: 5000 });
      const banner = $(".mcp .banner").textContent!;
      expect(banner).toContain(lang === "ko" ? "mcp.json의 4번째 줄 5번째 글자에서 JSON 형식이 잘못되어" : "mcp.json is not valid JSON at line 4, column 5, so no MCP server runs.");
      expect(banner).not.toContain("invalid character");
      cleanup();
    }
  });
});

describe("MCP servers in Settings", () => {
  it("lists servers with their state, tools and why one failed", async () => {
    await openSettings(servers);
    await vi.waitFor(() => expect($$(".servers > li")).toHaveLength(2));
    expect($("li[data-server='files'] .state").textContent).toBe("running");
    expect($$("li[data-server='files'] .tools li").map((e) => e.dataset.tool)).toEqual(["files__read_text_file", "files__write_file"]);
    expect($("li[data-server='files'] li[data-tool='files__read_text_file'] .badge").textContent).toBe("read-only");
    const failed = $("li[data-server='weather']");
    expect(failed.querySelector(".why")!.textContent).toBe("It did not start: it stopped");
    expect(failed.querySelector(".retry")!.textContent).toBe("Wayfinder tries again in 4 s.");
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
    await vi.waitFor(() => expect(why("weather")).toBe("시작하지 못했습니다: 실행할 프로그램이 없음: /opt/weather-mcp"), { timeout: 5000 });
    expect($("li[data-server='weather'] .retry").textContent).toBe("4초 뒤에 다시 시도합니다.");
    expect(why("odd")).toBe("시작하지 못했습니다.");
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

  it.each([
    ["en", "Korean words", "파일 서버", "Use 1 to 32 letters, digits, - or _"],
    ["en", "2,000 characters", "a".repeat(2000), "Use 1 to 32 letters, digits, - or _"],
    ["ko", "Korean words", "파일 서버", "영문자, 숫자, -, _로 1~32자"],
    ["ko", "a dash first", " -files", "영문자, 숫자, -, _로 1~32자"],
  ] as const)("says under the box why a name cannot be one, keeps it, and sends nothing (%s, %s)", async (language, _what, name, rule) => {
    const { fake } = await start({ settings: { language } });
    click(`button[aria-label="${language === "ko" ? "설정" : "Settings"}"]`);
    await vi.waitFor(() => expect($$(".mcp .none")).toHaveLength(1));
    fill("#mcp-name", name);
    fill("#mcp-command", "npx -y server");
    expect($("#mcp-name-error").textContent).toContain(rule);
    expect($("#mcp-name").getAttribute("aria-invalid")).toBe("true");
    expect(($(".add-server") as HTMLButtonElement).disabled).toBe(true);
    key($("#mcp-name"), "Enter");
    expect(fake.calls.some((c) => c.method === "Add")).toBe(false);
    expect(($("#mcp-name") as HTMLInputElement).value).toBe(name);
    // Corrected, the message goes and the server is added.
    fill("#mcp-name", "files-2");
    expect($$("#mcp-name-error")).toHaveLength(0);
    click(".add-server");
    await vi.waitFor(() => expect(fake.calls.some((c) => c.method === "Add")).toBe(true));
  });
});
