// Typed client for the Go SettingsService.
import type { Transport } from "./transport";
import type { AppInfo, ModelInfo, OllamaStatus, Settings } from "./gotypes.gen";

const S = "SettingsService";

export interface SettingsApi {
  get(): Promise<Settings>;
  save(s: Settings): Promise<Settings>;
  status(): Promise<OllamaStatus>;
  models(): Promise<ModelInfo[]>;
  /** pull downloads a model; progress arrives as models.pull_progress. */
  pull(model: string): Promise<void>;
  info(): Promise<AppInfo>;
}

export function settingsApi(t: Transport): SettingsApi {
  return {
    get: () => t.call<Settings>(S, "Get", []),
    save: (s) => t.call<Settings>(S, "Save", [s]),
    status: () => t.call<OllamaStatus>(S, "Status", []),
    models: async () =>
      ((await t.call<ModelInfo[] | null>(S, "Models", [])) ?? []).map((m) => ({
        ...m,
        capabilities: m.capabilities ?? [],
      })),
    pull: (model) => t.call<void>(S, "Pull", [model]),
    info: () => t.call<AppInfo>(S, "Info", []),
  };
}
