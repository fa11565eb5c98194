// openExternal opens a link outside the app: the system browser in the
// desktop window (Wails would otherwise navigate the app away), a new tab
// without opener access in a browser.
import type { WailsWindow } from "../api/transport";

export function openExternal(url: string): void {
  const w = window as Window & WailsWindow;
  if (w.runtime?.BrowserOpenURL) {
    w.runtime.BrowserOpenURL(url);
    return;
  }
  window.open(url, "_blank", "noopener,noreferrer");
}
