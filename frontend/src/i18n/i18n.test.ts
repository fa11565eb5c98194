import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import en from "./en.json";
import ko from "./ko.json";
import { format, resolveLang, setLang, t } from "./i18n.svelte";
import { Events } from "../api/gotypes.gen";

const SRC = join(__dirname, "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.(svelte|ts)$/.test(name) && !/\.test\.ts$/.test(name) ? [p] : [];
  });
}

function placeholders(s: string): string[] {
  return [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
}

describe("message catalogs", () => {
  it("have the same keys in en and ko", () => {
    const enKeys = Object.keys(en).sort();
    const koKeys = Object.keys(ko).sort();
    expect(koKeys.filter((k) => !enKeys.includes(k)), "only in ko.json").toEqual([]);
    expect(enKeys.filter((k) => !koKeys.includes(k)), "only in en.json").toEqual([]);
  });

  it("have no empty strings and the same placeholders", () => {
    for (const [k, v] of Object.entries(en)) {
      const kv = (ko as Record<string, string>)[k] ?? "";
      expect(v.trim(), `en ${k}`).not.toBe("");
      expect(kv.trim(), `ko ${k}`).not.toBe("");
      expect(placeholders(kv), `placeholders of ${k}`).toEqual(placeholders(v));
    }
  });

  it("write a size's unit apart from its figure in both languages (12 MB, not 12MB)", () => {
    const stuck = /(\{\w+\}|\d)(B|KB|MB|GB|KiB|MiB|GiB)(?![A-Za-z])/;
    for (const [lang, catalog] of [["en", en], ["ko", ko]] as const) {
      for (const [key, text] of Object.entries(catalog)) expect(text, `${lang} ${key}`).not.toMatch(stuck);
    }
  });

  it("contain every key the components use, and nothing unknown is used", () => {
    const known = new Set(Object.keys(en));
    const used = new Set<string>();
    const unknown: string[] = [];
    const eventNames = new Set<string>(Object.values(Events));
    // t("key") calls, plus keys written as MessageKey literals in arrays/maps.
    const pattern = /\bt\(\s*["'`]([^"'`]+)["'`]|["']((?:app|chat|common|empty|error|onboarding|sessions|settings|shortcuts|plan|trace|guide|knowledge|memory|nav)\.[A-Za-z0-9_]+)["']\s*[\],:)]/g;
    for (const file of sourceFiles(SRC)) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(pattern)) {
        const key = m[1] ?? m[2]!;
        // event names such as "chat.token" share a prefix but are not UI keys
        if (eventNames.has(key) || key.endsWith(".")) continue;
        used.add(key);
        if (!known.has(key)) unknown.push(`${relative(SRC, file)}: ${key}`);
      }
    }
    expect(unknown).toEqual([]);
    expect(used.size).toBeGreaterThan(50);
  });
});

describe("t and language", () => {
  it.each([
    ["ko", "en-US", "ko"],
    ["en", "ko-KR", "en"],
    ["", "ko-KR", "ko"],
    ["", "ko", "ko"],
    ["", "en-GB", "en"],
    ["", undefined, "en"],
    [undefined, "KO-kr", "ko"],
    ["fr", "fr-FR", "en"],
  ])("resolveLang(%j, %j) = %s", (setting, nav, want) => {
    expect(resolveLang(setting, nav)).toBe(want);
  });

  it("takes the singular form for a count of one", () => {
    setLang("en");
    expect(t("trace.sourcesFound", { count: 1 })).toBe("1 source");
    expect(t("trace.sourcesFound", { count: 2 })).toBe("2 sources");
    expect(t("trace.say.memories_recalled", { count: "1" })).toBe("Recalled 1 memory");
    expect(t("knowledge.toolsN", { n: 1 })).toBe("1 tool");
    expect(t("knowledge.toolsN", { n: 0 })).toBe("0 tools");
    setLang("ko");
    expect(t("trace.sourcesFound", { count: 1 })).toBe("출처 1개");
    setLang("en");
  });

  it("has a plural form beside every singular one", () => {
    for (const key of Object.keys(en).filter((k) => k.endsWith(".one"))) {
      expect(Object.hasOwn(en, key.slice(0, -".one".length)), key).toBe(true);
    }
  });

  it("translates and fills parameters", () => {
    setLang("ko");
    expect(t("sessions.delete", { title: "회의록" })).toBe("“회의록” 삭제");
    setLang("en");
    expect(t("sessions.delete", { title: "notes" })).toBe("Delete “notes”");
    expect(format("{a} and {b}", { a: 1 })).toBe("1 and {b}");
  });
});
