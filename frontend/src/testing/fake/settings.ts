// FakeSettings adds the SettingsService: settings, the Ollama status and
// models (with downloads), folders and tool grants, files saved.
import type { AppInfo, Workflow, ModelInfo, OllamaStatus, Settings, ToolGrant } from "../../api/gotypes.gen";
import { ApiError } from "../../api/errors";
import { FakeCore, type FakeOptions } from "./core";

export const FAKE_WORKFLOW: Workflow = {
  nodes: [
    { id: "start", type: "start" },
    { id: "load_context", type: "load_context" },
    { id: "router", type: "router" },
    { id: "retrieve", type: "retrieve" },
    { id: "answer", type: "answer" },
    { id: "answer_tools", type: "tools" },
    { id: "planner", type: "planner" },
    { id: "approve_plan", type: "approve_plan" },
    { id: "recommend", type: "recommend" },
    { id: "recommend_tools", type: "tools" },
    { id: "evaluate", type: "evaluate" },
    { id: "guide", type: "guide" },
    { id: "finish", type: "finish" },
    { id: "end", type: "end" },
  ],
  edges: [
    { source: "start", target: "load_context" },
    { source: "load_context", target: "router" },
    { source: "router", target: "retrieve", port: "simple" },
    { source: "router", target: "planner", port: "complex" },
    { source: "router", target: "finish", port: "end" },
    { source: "retrieve", target: "answer" },
    { source: "answer", target: "answer_tools", port: "tools" },
    { source: "answer", target: "finish", port: "done" },
    { source: "answer_tools", target: "answer" },
    { source: "planner", target: "approve_plan" },
    { source: "approve_plan", target: "recommend", port: "approve" },
    { source: "approve_plan", target: "planner", port: "revise" },
    { source: "approve_plan", target: "finish", port: "cancel" },
    { source: "recommend", target: "recommend_tools", port: "tools" },
    { source: "recommend", target: "evaluate", port: "evaluate" },
    { source: "recommend_tools", target: "evaluate" },
    { source: "evaluate", target: "recommend", port: "continue" },
    { source: "evaluate", target: "guide", port: "done" },
    { source: "guide", target: "finish" },
    { source: "finish", target: "end" },
  ],
};

/**
 * fakeSettings are the fake's settings before a test's own: those of a
 * fresh data folder with llama3.2:3b as the chat model. A new object each
 * call, so no test changes another's.
 */
export function fakeSettings(): Settings {
  return {
    ollama_host: "http://127.0.0.1:11434",
    chat_model: "llama3.2:3b",
    embed_model: "bge-m3",
    language: "",
    theme: "system",
    max_iterations: 5,
    context_tokens: 8192,
    parallel_requests: 0,
    system_prompt: "",
    temperature: null,
    fallback_model: "",
    web_search_enabled: false,
    run_python_enabled: false,
    weather_enabled: false,
    wikipedia_enabled: false,
    wikipedia_zim: "",
    wikipedia_online: false,
    web_search_url: "",
    folder_grants: [],
    revoked_import_folders: [],
  };
}

export class FakeSettings extends FakeCore {
  settings: Settings;
  status: OllamaStatus;
  savedFiles: Array<{ name: string; content: string }> = [];
  /** saveAs is what the fake native save dialog answers ("" = cancelled). */
  saveAs = "/home/you/Documents/guide.md";
  /** grants are the tools allowed for good ("always for this tool"). */
  grants: ToolGrant[] = [];

  constructor(opts: FakeOptions = {}) {
    super(opts);
    this.settings = { ...fakeSettings(), ...opts.settings };
    this.status = {
      host: this.settings.ollama_host,
      reachable: opts.reachable ?? true,
      version: "0.34.4",
      chat_model: { name: this.settings.chat_model, installed: opts.modelInstalled ?? true, capabilities: ["completion", "tools"] },
      embed_model: { name: this.settings.embed_model, installed: true, capabilities: ["embedding"] },
      hosts: opts.hosts ?? [],
    };
    if (opts.modelInstalled === false) this.models = this.models.filter((m) => m.name !== this.settings.chat_model);
  }

  "SettingsService.Get"(): Settings {
    return { ...this.settings };
  }
  "SettingsService.Save"(s: Settings): Settings {
    // As the backend: Save leaves the folder grants alone.
    this.settings = { ...s, folder_grants: this.settings.folder_grants, revoked_import_folders: this.settings.revoked_import_folders };
    return { ...this.settings };
  }
  "SettingsService.Status"(): OllamaStatus {
    return structuredClone(this.status);
  }
  "SettingsService.CheckNow"(): OllamaStatus {
    return structuredClone(this.status);
  }
  /** models are what the fake Ollama has, named as Ollama lists them (with a tag). */
  models: ModelInfo[] = [
    { name: "llama3.2:3b", size: 2_000_000_000, capabilities: ["completion", "tools"] },
    { name: "gemma3:1b", size: 800_000_000, capabilities: ["completion"] },
    { name: "bge-m3:latest", size: 1_200_000_000, capabilities: ["embedding"] },
  ];
  "SettingsService.Models"(): ModelInfo[] {
    if (!this.status.reachable) throw new ApiError({ code: "ollama_unreachable", message: "ollama is not reachable", hint: "ollama serve" });
    if (this.opts.modelsError) throw new ApiError(this.opts.modelsError);
    return structuredClone(this.models);
  }
  private pulls = new Map<string, ReturnType<typeof setTimeout>>();
  "SettingsService.Pull"(model: string): void {
    const total = 2_000_000_000;
    // As the backend: with several hosts each downloads it in turn, and
    // each event names the host and its place.
    const hosts = this.status.hosts.length > 1 ? this.status.hosts.map((h) => h.url) : [];
    let done = 0;
    let at = 0;
    const tick = () => {
      done = Math.min(total, done + total / 5);
      if (done >= total && at < hosts.length - 1) {
        this.emit("models.pull_progress", { model, status: "pulling 6a0746a1ec1a", completed: done, total, done: false, host: hosts[at], host_index: at + 1, hosts: hosts.length });
        at++;
        done = 0;
        this.pulls.set(model, setTimeout(tick, this.opts.pullStepMs ?? this.opts.tokenDelayMs ?? 20));
        return;
      }
      const finished = done >= total;
      if (finished) {
        this.pulls.delete(model);
        if (model === this.status.chat_model.name) this.status.chat_model.installed = true;
        if (!this.models.some((m) => m.name === model)) this.models.push({ name: model, size: total, capabilities: ["completion", "tools"] });
      }
      const where = hosts.length && !finished ? { host: hosts[at], host_index: at + 1, hosts: hosts.length } : {};
      this.emit("models.pull_progress", { model, status: finished ? "success" : "pulling manifest", completed: done, total, done: finished, ...where });
      if (!finished) this.pulls.set(model, setTimeout(tick, this.opts.pullStepMs ?? this.opts.tokenDelayMs ?? 20));
    };
    this.pulls.set(model, setTimeout(tick, 20));
  }
  "SettingsService.CancelPull"(model: string): void {
    const timer = this.pulls.get(model);
    if (!timer) return;
    clearTimeout(timer);
    this.pulls.delete(model);
    this.emit("models.pull_progress", { model, status: "cancelled", completed: 0, total: 0, done: true, cancelled: true });
  }
  "SettingsService.DeleteModel"(model: string): void {
    if (!this.models.some((m) => m.name === model)) throw new ApiError({ code: "model_missing", message: `model '${model}' not found` });
    this.models = this.models.filter((m) => m.name !== model);
    if (model === this.status.chat_model.name) this.status.chat_model.installed = false;
  }
  "SettingsService.Info"(): AppInfo {
    return { version: "0.1.0-dev", data_dir: "/home/you/.local/share/wayfinder", mode: this.opts.mode ?? "serve", locale: "en" };
  }
  "SettingsService.Workflow"(): Workflow {
    return structuredClone(FAKE_WORKFLOW);
  }
  "SettingsService.SaveTextFile"(name: string, content: string): string {
    this.savedFiles.push({ name, content });
    return this.saveAs;
  }
  "SettingsService.OpenDataDir"(): void {}
  /** folders names the folders that exist on the fake disk. */
  folders = new Set(["/home/you/notes", "/home/you/projects"]);
  chosenFolder = "/home/you/projects";
  chosenZim = "/home/you/wikipedia_ko_all.zim";
  "SettingsService.GrantFolder"(path: string, hidden: boolean, secrets: boolean): Settings {
    if (!this.folders.has(path)) throw new ApiError({ code: "folder_not_found", message: `There is no folder ${path}.`, args: { path } });
    const grants = this.settings.folder_grants.filter((g) => g.path !== path);
    const old = this.settings.folder_grants.find((g) => g.path === path);
    grants.push({ path, allow_hidden: hidden, allow_secrets: secrets, granted_at: old?.granted_at ?? "2026-11-23T09:00:00Z" });
    const revoked = (this.settings.revoked_import_folders ?? []).filter((p) => p !== path);
    this.settings = { ...this.settings, folder_grants: grants, revoked_import_folders: revoked };
    return structuredClone(this.settings);
  }
  "SettingsService.RevokeFolder"(path: string): Settings {
    if (!this.settings.folder_grants.some((g) => g.path === path)) throw new ApiError({ code: "folder_not_granted", message: `${path} is not a folder Wayfinder may read.`, args: { path } });
    this.settings = { ...this.settings, folder_grants: this.settings.folder_grants.filter((g) => g.path !== path) };
    return structuredClone(this.settings);
  }
  "SettingsService.DismissRevokedFolders"(): Settings {
    this.settings = { ...this.settings, revoked_import_folders: [] };
    return structuredClone(this.settings);
  }
  "SettingsService.ChooseZIM"(): string {
    if (this.opts.mode !== "desktop") throw new ApiError({ code: "desktop_only", message: "This works only in the desktop window." });
    return this.chosenZim;
  }
  "SettingsService.ChooseFolder"(): string {
    if (this.opts.mode !== "desktop") throw new ApiError({ code: "desktop_only", message: "This works only in the desktop window." });
    return this.chosenFolder;
  }
  "SettingsService.ToolGrants"(): ToolGrant[] {
    return structuredClone(this.grants);
  }
  "SettingsService.RevokeToolGrant"(tool: string): void {
    if (!this.grants.some((g) => g.tool === tool)) throw new ApiError({ code: "not_found", message: "no such grant" });
    this.grants = this.grants.filter((g) => g.tool !== tool);
  }

  "SettingsService.Ready"(): void {
    this.readyCalls++;
  }
  /** How often the page reported Ready (it must, once, after mounting). */
  readyCalls = 0;
}
