// SettingsStore loads and saves the person's settings and applies the
// language and theme to the page.
import { parseError } from "../api/errors";
import type { AppInfo, ModelInfo, Settings } from "../api/gotypes.gen";
import type { ErrorInfo } from "../api/errors";
import type { SettingsApi } from "../api/settings";
import { resolveLang, setLang } from "../i18n/i18n.svelte";

export class SettingsStore {
  settings = $state<Settings | null>(null);
  models = $state<ModelInfo[]>([]);
  modelsError = $state<ErrorInfo | null>(null);
  /** modelsLoaded is true once Ollama listed its models (models is known). */
  modelsLoaded = $state(false);
  info = $state<AppInfo | null>(null);
  saving = $state(false);
  error = $state<ErrorInfo | null>(null);

  constructor(private readonly api: SettingsApi) {}

  async load(): Promise<void> {
    try {
      this.settings = await this.api.get();
      this.error = null;
    } catch (e) {
      this.error = parseError(e);
    }
    this.apply();
  }

  async loadModels(): Promise<void> {
    try {
      this.models = await this.api.models();
      this.modelsError = null;
      this.modelsLoaded = true;
    } catch (e) {
      this.modelsError = parseError(e);
    }
  }

  async loadInfo(): Promise<AppInfo | null> {
    try {
      this.info = await this.api.info();
    } catch (e) {
      this.error = parseError(e);
    }
    return this.info;
  }

  /** deleteModel removes a model from Ollama and lists the models again. */
  async deleteModel(name: string): Promise<void> {
    await this.api.deleteModel(name);
    await this.loadModels();
  }

  /** openDataDir shows the data folder in the file manager (desktop). */
  async openDataDir(): Promise<boolean> {
    try {
      await this.api.openDataDir();
      return true;
    } catch (e) {
      this.error = parseError(e);
      return false;
    }
  }

  async save(next: Settings): Promise<boolean> {
    this.saving = true;
    try {
      this.settings = await this.api.save(next);
      this.error = null;
      this.apply();
      return true;
    } catch (e) {
      this.error = parseError(e);
      return false;
    } finally {
      this.saving = false;
    }
  }

  /** apply sets the page language and theme from the settings. */
  apply(): void {
    const nav = typeof navigator !== "undefined" ? navigator.language : "";
    setLang(resolveLang(this.settings?.language, nav));
    const theme = this.settings?.theme;
    const root = document.documentElement;
    if (theme === "light" || theme === "dark") root.dataset.theme = theme;
    else delete root.dataset.theme;
  }
}
