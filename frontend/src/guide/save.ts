// Saving an exported guide: the native save dialog in the desktop app, a
// browser download in serve mode (browsers give pages no file paths).
import type { SettingsApi } from "../api/settings";

export type SaveResult = { kind: "saved"; path: string } | { kind: "cancelled" } | { kind: "downloaded"; name: string };

export async function saveMarkdown(api: SettingsApi, mode: string, name: string, content: string, type = "text/markdown"): Promise<SaveResult> {
  if (mode === "desktop") {
    const path = await api.saveTextFile(name, content);
    return path ? { kind: "saved", path } : { kind: "cancelled" };
  }
  const url = URL.createObjectURL(new Blob([content], { type: `${type};charset=utf-8` }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.style.display = "none";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { kind: "downloaded", name };
}
