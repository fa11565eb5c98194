import { describe, expect, it } from "vitest";
import type { Settings } from "../api/gotypes.gen";
import { checkSettings } from "./validate";

const base: Settings = {
  ollama_host: "http://127.0.0.1:11434",
  chat_model: "m",
  embed_model: "",
  language: "",
  theme: "system",
  max_iterations: 5,
  context_tokens: 8192,
  parallel_requests: 0,
  system_prompt: "",
  temperature: null,
  fallback_model: "",
  web_search_enabled: false,
  run_python_enabled: false,
  weather_enabled: false,
  wikipedia_enabled: false,
  wikipedia_zim: "",
  wikipedia_online: false,
  web_search_url: "",
  folder_grants: [],
};

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
