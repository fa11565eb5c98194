import { describe, expect, it } from "vitest";
import type { Settings } from "../api/gotypes.gen";
import { checkSettings } from "./validate";
import { fakeSettings } from "../testing/fakeBackend";

const base: Settings = fakeSettings();

describe("checkSettings", () => {
  it.each<[Partial<Settings>, string[]]>([
    [{}, []],
    [{ ollama_host: "localhost:11434" }, []],
    [{ ollama_host: "" }, ["host"]],
    [{ ollama_host: "ftp://x y" }, ["host"]],
    [{ ollama_host: "http://gpu1:11434, gpu2:11434" }, []],
    [{ ollama_host: "gpu1, ftp://x" }, ["host"]],
    [{ ollama_host: " , " }, ["host"]],
    [{ max_iterations: 0 }, ["iterations"]],
    [{ max_iterations: 2.5 }, ["iterations"]],
    [{ max_iterations: 21 }, ["iterations"]],
    [{ web_search_enabled: true, web_search_url: "" }, ["web_url"]],
    [{ web_search_enabled: true, web_search_url: "http://127.0.0.1:8888" }, []],
    [{ web_search_enabled: false, web_search_url: "nonsense" }, []],
  ])("%j → %j", (patch, want) => {
    expect(checkSettings({ ...base, ...patch })).toEqual(want);
  });
});
