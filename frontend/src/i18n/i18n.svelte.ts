// A tiny typed i18n: every UI string lives in en.json and ko.json; keys are
// checked by TypeScript (MessageKey) and by i18n.test.ts (parity, usage).
import en from "./en.json";
import ko from "./ko.json";
import { PARTICLE_AFTER, particle } from "./particle";

export type MessageKey = keyof typeof en;
export type Lang = "en" | "ko";
export type Params = Record<string, string | number>;

// Typing ko as Record<MessageKey, string> makes a key missing from ko.json a
// compile error in `npm run check`, on top of the parity test.
const catalogs: Record<Lang, Record<MessageKey, string>> = { en, ko };

const state = $state<{ lang: Lang }>({ lang: "en" });

/** resolveLang: the saved setting wins; "" follows the OS/browser locale. */
export function resolveLang(setting: string | undefined, navigatorLang: string | undefined): Lang {
  const s = (setting ?? "").toLowerCase();
  if (s === "ko" || s === "en") return s;
  return (navigatorLang ?? "").toLowerCase().startsWith("ko") ? "ko" : "en";
}

export function setLang(lang: Lang): void {
  state.lang = lang;
  if (typeof document !== "undefined") document.documentElement.lang = lang;
}

export function lang(): Lang {
  return state.lang;
}

const PLACEHOLDER = new RegExp(`\\{(\\w+)\\}${PARTICLE_AFTER}`, "g");

/** format replaces {name} placeholders; unknown placeholders stay visible.
 * A Korean particle written in both forms after one ("{title}을(를)") takes
 * the form the value needs (particle). */
export function format(template: string, params?: Params): string {
  if (!params) return template;
  return template.replace(PLACEHOLDER, (m, name: string, closers: string, form: string | undefined) => {
    if (!(name in params)) return m;
    const v = String(params[name]);
    return v + closers + particle(v, form ?? "");
  });
}

/** isKey tells whether a key built at run time is in the catalogs. */
export function isKey(key: string): key is MessageKey {
  return Object.hasOwn(catalogs.en, key);
}

/** t looks a key up in the current language (reactive in components).
 * With a count (or n) of 1 it takes the key's ".one" form when there is
 * one ("1 source", not "1 sources"). */
export function t(key: MessageKey, params?: Params): string {
  const one = `${key}.one`;
  const n = params?.count ?? params?.n;
  const k = (n === 1 || n === "1") && isKey(one) ? one : key;
  const msg = catalogs[state.lang][k] ?? catalogs.en[k] ?? key;
  return format(msg, params);
}

/** formatNumber uses the UI language's digit grouping. */
export function formatNumber(n: number): string {
  return new Intl.NumberFormat(state.lang === "ko" ? "ko-KR" : "en-US").format(n);
}

/** everyLang is a key's words in every language, to recognise stored text. */
export function everyLang(key: MessageKey): string[] {
  return [catalogs.en[key], catalogs.ko[key]];
}

export const catalogsForTest = catalogs;
