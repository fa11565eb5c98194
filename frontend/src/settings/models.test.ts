import { afterEach, describe, expect, it } from "vitest";
import { setLang } from "../i18n/i18n.svelte";
import { modelSize } from "./models";

describe("modelSize", () => {
  afterEach(() => setLang("en"));

  it.each([
    [0, ""],
    [-1, ""],
    [1_048_576, "1 MB"], // the test tier's tiny model
    [300_000, "1 MB"],
    [45_960_996, "46 MB"], // all-minilm
    [274_302_450, "274 MB"], // nomic-embed-text
    [999_499_999, "999 MB"],
    [999_500_000, "1 GB"],
    [999_999_999, "1 GB"],
    [1_157_627_880, "1.2 GB"], // bge-m3
    [2_019_393_189, "2 GB"], // llama3.2:3b
  ])("%d bytes read %s", (bytes, want) => {
    expect(modelSize(bytes)).toBe(want);
  });

  it("reads the same in Korean, whose UI writes the units in Latin letters too", () => {
    setLang("ko");
    expect(modelSize(1_157_627_880)).toBe("1.2 GB");
    expect(modelSize(45_960_996)).toBe("46 MB");
  });
});
