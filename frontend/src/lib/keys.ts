// The window's keyboard shortcuts: one table that both the key handler and
// the help overlay read, so what the overlay lists is what the keys do.
//
// Letters are matched by their physical key (KeyboardEvent.code) as well as
// by the character: with a Korean input method on, Ctrl+K arrives as "ㅏ".
import type { MessageKey } from "../i18n/i18n.svelte";

export type Action =
  | "newChat"
  | "palette"
  | "prevChat"
  | "nextChat"
  | "focusSearch"
  | "focusInput"
  | "copyLast"
  | "regenerate"
  | "toggleSidebar"
  | "stop"
  | "help";

/** shift "any": the Shift is part of the character ("?" is Shift+/ on most layouts). */
type Binding = { key: string; mod?: boolean; shift?: boolean | "any"; alt?: boolean; whenNotTyping?: boolean };

const BINDINGS: Record<Action, Binding[]> = {
  newChat: [{ mod: true, key: "n" }],
  palette: [{ mod: true, key: "k" }],
  prevChat: [{ mod: true, key: "ArrowUp" }],
  nextChat: [{ mod: true, key: "ArrowDown" }],
  focusSearch: [{ mod: true, shift: true, key: "f" }],
  focusInput: [{ shift: true, key: "Escape" }],
  copyLast: [{ mod: true, shift: true, key: "c" }],
  regenerate: [{ alt: true, key: "r" }],
  toggleSidebar: [{ mod: true, key: "b" }],
  stop: [{ mod: true, key: "." }],
  help: [{ mod: true, key: "/" }, { key: "?", shift: "any", whenNotTyping: true }],
};

/** isTyping: the key goes into a text field (plain keys must stay text there). */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable);
}

function sameKey(e: KeyboardEvent, key: string): boolean {
  if (key.length === 1 && /[a-z]/.test(key)) return e.code === `Key${key.toUpperCase()}` || e.key.toLowerCase() === key;
  return e.key === key;
}

/** actionOf is the shortcut a key press means, or null. */
export function actionOf(e: KeyboardEvent): Action | null {
  const mod = e.ctrlKey || e.metaKey;
  for (const [action, list] of Object.entries(BINDINGS) as Array<[Action, Binding[]]>) {
    for (const b of list) {
      if (!sameKey(e, b.key)) continue;
      if (!!b.mod !== mod || !!b.alt !== e.altKey) continue;
      if (b.shift !== "any" && !!b.shift !== e.shiftKey) continue;
      if (b.whenNotTyping && isTyping(e.target)) continue;
      return action;
    }
  }
  return null;
}

const isMac = typeof navigator !== "undefined" && /Mac/i.test(navigator.platform);

function label(b: Binding): string {
  const names: Record<string, string> = { ArrowUp: "↑", ArrowDown: "↓", Escape: "Esc", Enter: "Enter" };
  const key = names[b.key] ?? (b.key.length === 1 ? b.key.toUpperCase() : b.key);
  const parts = [b.mod ? (isMac ? "⌘" : "Ctrl") : "", b.alt ? (isMac ? "⌥" : "Alt") : "", b.shift === true ? "Shift" : "", key];
  return parts.filter(Boolean).join("+");
}

/** keysOf is how the overlay writes an action's keys ("Ctrl+K", "Ctrl+/ · ?"). */
export function keysOf(action: Action): string {
  return BINDINGS[action].map(label).join(" · ");
}

/**
 * HELP is the overlay's list, in the order a person meets them; keys that
 * only work in one place (send, new line, the plan editor's) are written
 * out here rather than bound in BINDINGS.
 */
export const HELP: Array<[string, MessageKey]> = [
  [keysOf("newChat"), "shortcuts.newChat"],
  [keysOf("palette"), "shortcuts.palette"],
  [`${label({ mod: true, key: "ArrowUp" })} / ${label({ mod: true, key: "ArrowDown" })}`, "shortcuts.switchChat"],
  [keysOf("focusSearch"), "shortcuts.focusSearch"],
  [keysOf("focusInput"), "shortcuts.focusInput"],
  ["Enter", "shortcuts.send"],
  ["Shift+Enter", "shortcuts.newline"],
  [keysOf("copyLast"), "shortcuts.copyLast"],
  [keysOf("regenerate"), "shortcuts.regenerate"],
  [`Esc · ${keysOf("stop")}`, "shortcuts.stop"],
  [keysOf("toggleSidebar"), "shortcuts.toggleSidebar"],
  [`${label({ alt: true, key: "ArrowUp" })} / ${label({ alt: true, key: "ArrowDown" })}`, "shortcuts.reorder"],
  [label({ mod: true, key: "Enter" }), "shortcuts.approve"],
  [keysOf("help"), "shortcuts.help"],
];
