// An MCP server over stdio that lists one tool, "wait", and never answers
// a call of it (nor its cancellation): a hung server, for the browser test
// of Stop (frontend/e2e/mcp-more.spec.ts). Plain JSON-RPC lines, no
// dependencies.
import { createInterface } from "node:readline";

const send = (msg) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...msg }) + "\n");

createInterface({ input: process.stdin }).on("line", (line) => {
  let req;
  try {
    req = JSON.parse(line);
  } catch {
    return;
  }
  if (req.id === undefined || req.id === null) return; // a notification
  switch (req.method) {
    case "initialize":
      send({ id: req.id, result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "hang", version: "1" } } });
      return;
    case "tools/list":
      send({ id: req.id, result: { tools: [{ name: "wait", description: "Waits for something that never comes.", inputSchema: { type: "object", properties: {} } }] } });
      return;
    case "tools/call":
      return; // never answers
    case "ping":
      send({ id: req.id, result: {} });
      return;
    default:
      send({ id: req.id, error: { code: -32601, message: `method not found: ${req.method}` } });
  }
});
