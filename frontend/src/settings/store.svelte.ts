// SettingsStore loads and saves the person's settings and applies the
// language and theme to the page.
import { parseError } from "../api/errors";
import type { AppInfo, ModelInfo, Settings, ToolGrant } from "../api/gotypes.gen";
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
  /** folderError is the last failed grant or revoke (shown by the folder list). */
  folderError = $state<ErrorInfo | null>(null);
  folderBusy = $state(false);
  /** grants are the tools allowed to run without asking. */
  grants = $state<ToolGrant[]>([]);

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

  async loadGrants(): Promise<void> {
    try {
      this.grants = await this.api.toolGrants();
    } catch (e) {
      this.error = parseError(e);
    }
  }

  /** revokeGrant makes the tool ask before each call again. */
  async revokeGrant(tool: string): Promise<boolean> {
    try {
      await this.api.revokeToolGrant(tool);
      this.grants = this.grants.filter((g) => g.tool !== tool);
      return true;
    } catch (e) {
      this.error = parseError(e);
      await this.loadGrants();
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

  /**
   * Folder grants apply at once (not with Save): each call returns the
   * settings in effect, which replace the ones shown.
   */
  async grantFolder(path: string, allowHidden = false, allowSecrets = false): Promise<boolean> {
    return this.changeFolders(() => this.api.grantFolder(path, allowHidden, allowSecrets));
  }

  async revokeFolder(path: string): Promise<boolean> {
    return this.changeFolders(() => this.api.revokeFolder(path));
  }

  async dismissRevokedFolders(): Promise<boolean> {
    return this.changeFolders(() => this.api.dismissRevokedFolders());
  }

  /** chooseFolder asks the desktop's folder dialog; "" when cancelled or unavailable. */
  async chooseFolder(): Promise<string> {
    try {
      return await this.api.chooseFolder();
    } catch (e) {
      this.folderError = parseError(e);
      return "";
    }
  }

  /** chooseZim asks the desktop's file dialog for a ZIM file; "" when cancelled or unavailable. */
  async chooseZim(): Promise<string> {
    try {
      return await this.api.chooseZim();
    } catch (e) {
      this.error = parseError(e);
      return "";
    }
  }

  private async changeFolders(call: () => Promise<Settings>): Promise<boolean> {
    this.folderBusy = true;
    try {
      const next = await call();
      this.settings = this.settings ? { ...this.settings, folder_grants: next.folder_grants, revoked_import_folders: next.revoked_import_folders } : next;
      this.folderError = null;
      return true;
    } catch (e) {
      this.folderError = parseError(e);
      return false;
    } finally {
      this.folderBusy = false;
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
