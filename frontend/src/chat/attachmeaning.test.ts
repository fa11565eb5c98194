// The row of a file a chat added to the library says how every
// conversation finds it: by its words and by its meaning when an embedding
// model answers (the backend's status), by its words only when none does
// (the model missing from Ollama, Ollama away, no embedding model set),
// which it says too of a file whose meaning waits. It said "by its
// meaning" with no vector to search. In English and Korean.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { OllamaStatus } from "../api/gotypes.gen";
import { setLang } from "../i18n/i18n.svelte";
import { meaningOff } from "../onboarding/store.svelte";
import { FakeBackend } from "../testing/fakeBackend";
import { attach, attachChip as chip, attachRow as row, cleanup, click, start } from "../testing/ui";
import { movedWords } from "./attach.svelte";

afterEach(cleanup);

const words = {
  en: {
    both: "Added to your library: every conversation finds it by its words and by its meaning",
    embedding: "Added to your library: every conversation finds it by its words now; its meaning is indexed in the background",
    words: "Added to your library: every conversation finds it by its words; by its meaning too once an embedding model is set up and running",
    toLibrary: "Add to library",
  },
  ko: {
    both: "지식 베이스에 추가했습니다. 이제 모든 대화에서 키워드와 의미로 찾습니다",
    embedding: "지식 베이스에 추가했습니다. 이제 모든 대화에서 키워드로 찾고, 의미 색인은 뒤에서 이어서 합니다",
    words: "지식 베이스에 추가했습니다. 이제 모든 대화에서 키워드로 찾고, 임베딩 모델을 설정해 실행하면 의미로도 찾습니다",
    toLibrary: "지식 베이스에 추가",
  },
} as const;

const status = (s: Partial<OllamaStatus> & { embed?: Partial<OllamaStatus["embed_model"]> }): OllamaStatus => ({
  host: "http://127.0.0.1:11434",
  reachable: true,
  version: "0.34.4",
  chat_model: { name: "llama3.2:3b", installed: true, capabilities: ["completion", "tools"] },
  embed_model: { name: "bge-m3", installed: true, capabilities: ["embedding"], ...s.embed },
  hosts: [],
  ...s,
});

describe("meaningOff", () => {
  const cases: { name: string; s: OllamaStatus | null; off: boolean }[] = [
    { name: "no status yet: not known, not off", s: null, off: false },
    { name: "the embedding model installed", s: status({}), off: false },
    { name: "the embedding model missing from Ollama's list", s: status({ embed: { installed: false }, error: { code: "model_missing", message: "" } }), off: true },
    { name: "no embedding model set", s: status({ embed: { name: "", installed: false } }), off: true },
    { name: "Ollama does not answer", s: status({ reachable: false, embed: { installed: false } }), off: true },
    { name: "Ollama's list could not be read: not known, not off", s: status({ embed: { installed: false }, error: { code: "ollama_error", message: "" } }), off: false },
  ];
  for (const c of cases) it(c.name, () => expect(meaningOff(c.s)).toBe(c.off));
});

describe("movedWords", () => {
  const cases: [Parameters<typeof movedWords>[0], boolean, string][] = [
    ["added", false, "attach.addedToLibrary"],
    ["embedded", false, "attach.addedToLibrary"],
    ["embedding", false, "attach.addedToLibraryEmbedding"],
    ["removed", false, "attach.addedToLibraryRemoved"],
    ["added", true, "attach.addedToLibraryWords"],
    ["embedded", true, "attach.addedToLibraryWords"],
    ["embedding", true, "attach.addedToLibraryWords"],
    ["removed", true, "attach.addedToLibraryRemoved"],
  ];
  for (const [moved, off, key] of cases) it(`${moved}, meaning ${off ? "off" : "on"}: ${key}`, () => expect(movedWords(moved, off)).toBe(key));
});

/** added starts the app in lang with the embedding model as installed says, attaches name and adds it to the library. */
async function added(lang: "en" | "ko", name: string, installed: boolean) {
  const fake = new FakeBackend({ settings: { language: lang } });
  fake.status.embed_model.installed = installed;
  if (!installed) fake.status.error = { code: "model_missing", message: "bge-m3 is not installed" };
  await start({}, fake);
  setLang(lang);
  attach([new File(["# 규정\n\n연차는 15일입니다."], name)]);
  await vi.waitFor(() => expect(chip(name)?.querySelector("button")?.textContent).toBe(words[lang].toLibrary), { timeout: 5000 });
  click(chip(name)!.querySelector<HTMLButtonElement>("button")!);
  await vi.waitFor(() => expect(row().dataset.stage).toBe("library"), { timeout: 5000 });
  return fake;
}

const said = () => row().querySelector(".stage")!.textContent;

describe("a file a chat added to the library", () => {
  for (const lang of ["en", "ko"] as const) {
    it(`with the embedding model there, is found by its words and its meaning (${lang})`, async () => {
      await added(lang, "규정.md", true);
      expect(said()).toBe(words[lang].both);
    });

    it(`with no embedding model, is found by its words only, and by its meaning once the model is there (${lang})`, async () => {
      const fake = await added(lang, "규정.md", false);
      expect(said()).toBe(words[lang].words);
      fake.status.embed_model.installed = true;
      delete fake.status.error;
      fake.emit("ollama.status", structuredClone(fake.status));
      await vi.waitFor(() => expect(said()).toBe(words[lang].both), { timeout: 5000 });
    });

    it(`while it embeds with no embedding model, says its meaning waits for one, not that it is indexed (${lang})`, async () => {
      const fake = await added(lang, "slow-report.md", false);
      expect(said()).toBe(words[lang].words);
      fake.status.embed_model.installed = true;
      delete fake.status.error;
      fake.emit("ollama.status", structuredClone(fake.status));
      await vi.waitFor(() => expect(said()).toBe(words[lang].embedding), { timeout: 5000 });
    });
  }
});
