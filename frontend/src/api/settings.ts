// Typed client for the Go SettingsService.
import type { Transport } from "./transport";
import type { AppInfo, ModelInfo, OllamaStatus, Settings, ToolGrant, Workflow } from "./gotypes.gen";

const S = "SettingsService";

export interface SettingsApi {
  get(): Promise<Settings>;
  save(s: Settings): Promise<Settings>;
  status(): Promise<OllamaStatus>;
  /**
   * checkNow is status when the person asks for it ("Check now"): with
   * several hosts, those that are down are probed now rather than when
   * their wait runs out (the polls every few seconds keep the waits).
   */
  checkNow(): Promise<OllamaStatus>;
  models(): Promise<ModelInfo[]>;
  /** pull downloads a model; progress arrives as models.pull_progress. */
  pull(model: string): Promise<void>;
  /** cancelPull stops a download; its last progress event says cancelled. */
  cancelPull(model: string): Promise<void>;
  /** deleteModel removes a model from Ollama for good. */
  deleteModel(model: string): Promise<void>;
  info(): Promise<AppInfo>;
  ready(version: string): Promise<void>;
  /** workflow is the agent graph in effect, for the live drawing. */
  workflow(): Promise<Workflow>;
  /** saveTextFile opens the desktop save dialog; "" when cancelled. */
  saveTextFile(defaultName: string, content: string): Promise<string>;
  /** openDataDir shows the data folder in the file manager (desktop). */
  openDataDir(): Promise<void>;
  /** grantFolder lets read_file read a folder (or changes what it allows there). */
  grantFolder(path: string, allowHidden: boolean, allowSecrets: boolean): Promise<Settings>;
  revokeFolder(path: string): Promise<Settings>;
  /** dismissRevokedFolders clears the notice about folders imports used to grant. */
  dismissRevokedFolders(): Promise<Settings>;
  /** chooseFolder opens the native folder dialog (desktop); "" when cancelled. */
  chooseFolder(): Promise<string>;
  /** chooseZim opens the native file dialog for search_wikipedia's ZIM file (desktop); "" when cancelled. */
  chooseZim(): Promise<string>;
  /** toolGrants lists the tools allowed to run without asking. */
  toolGrants(): Promise<ToolGrant[]>;
  /** revokeToolGrant makes a tool ask again before each call. */
  revokeToolGrant(tool: string): Promise<void>;
}

/** withLists gives a Settings' lists their empty value instead of null. */
function withLists(s: Settings): Settings {
  return { ...s, folder_grants: s.folder_grants ?? [], revoked_import_folders: s.revoked_import_folders ?? [] };
}

export function settingsApi(t: Transport): SettingsApi {
  return {
    get: async () => withLists(await t.call<Settings>(S, "Get", [])),
    save: async (s) => withLists(await t.call<Settings>(S, "Save", [s])),
    status: () => t.call<OllamaStatus>(S, "Status", []),
    checkNow: () => t.call<OllamaStatus>(S, "CheckNow", []),
    models: async () =>
      ((await t.call<ModelInfo[] | null>(S, "Models", [])) ?? []).map((m) => ({
        ...m,
        capabilities: m.capabilities ?? [],
      })),
    pull: (model) => t.call<void>(S, "Pull", [model]),
    cancelPull: (model) => t.call<void>(S, "CancelPull", [model]),
    deleteModel: (model) => t.call<void>(S, "DeleteModel", [model]),
    info: () => t.call<AppInfo>(S, "Info", []),
    ready: (version) => t.call<void>(S, "Ready", [version]),
    workflow: async () => {
      const w = await t.call<Workflow | null>(S, "Workflow", []);
      return { nodes: w?.nodes ?? [], edges: w?.edges ?? [] };
    },
    saveTextFile: async (name, content) => (await t.call<string | null>(S, "SaveTextFile", [name, content])) ?? "",
    openDataDir: () => t.call<void>(S, "OpenDataDir", []),
    grantFolder: async (path, hidden, secrets) => withLists(await t.call<Settings>(S, "GrantFolder", [path, hidden, secrets])),
    revokeFolder: async (path) => withLists(await t.call<Settings>(S, "RevokeFolder", [path])),
    dismissRevokedFolders: async () => withLists(await t.call<Settings>(S, "DismissRevokedFolders", [])),
    chooseFolder: async () => (await t.call<string | null>(S, "ChooseFolder", [])) ?? "",
    chooseZim: async () => (await t.call<string | null>(S, "ChooseZIM", [])) ?? "",
    toolGrants: async () => (await t.call<ToolGrant[] | null>(S, "ToolGrants", [])) ?? [],
    revokeToolGrant: (tool) => t.call<void>(S, "RevokeToolGrant", [tool]),
  };
}
