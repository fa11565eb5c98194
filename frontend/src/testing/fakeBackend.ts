// FakeBackend is an in-memory stand-in for the Go services, used by unit
// tests and by the visual harness (mock.html). It implements Transport, so
// everything above the transport runs exactly as in the app.
//
// Each service's fake has its own file under fake/, and each adds its
// service on top of the one before it, in the order of what they share:
//
//	core       the transport: options, events, calls, "Service.Method" dispatch
//	settings   SettingsService: settings, Ollama status and models, folders, tool grants
//	memory     MemoryService
//	mcp        MCPService
//	chat       ChatService: conversations and their turns (uses the tool grants and memories)
//	knowledge  KnowledgeService: documents, imports, a conversation's attached files, search
//
// A test can replace one method on an instance: fake["ChatService.Send"] = () => …
import { FakeKnowledge } from "./fake/knowledge";

export type { FakeOptions } from "./fake/core";
export { FAKE_CALL_NOTE } from "./fake/chat";
export { FAKE_WORKFLOW, fakeSettings } from "./fake/settings";

export class FakeBackend extends FakeKnowledge {}
