// Services bundles the transport and the typed API modules built on it; App
// receives it as a prop so tests and the visual harness can pass fakes.
import { chatApi, type ChatApi } from "./api/chat";
import { knowledgeApi, type KnowledgeApi } from "./api/knowledge";
import { mcpApi, type McpApi } from "./api/mcp";
import { memoryApi, type MemoryApi } from "./api/memory";
import { settingsApi, type SettingsApi } from "./api/settings";
import type { Transport } from "./api/transport";

export interface Services {
  transport: Transport;
  chat: ChatApi;
  settings: SettingsApi;
  knowledge: KnowledgeApi;
  memory: MemoryApi;
  mcp: McpApi;
}

export function makeServices(transport: Transport): Services {
  return {
    transport,
    chat: chatApi(transport),
    settings: settingsApi(transport),
    knowledge: knowledgeApi(transport),
    memory: memoryApi(transport),
    mcp: mcpApi(transport),
  };
}
