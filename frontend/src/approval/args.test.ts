import { describe, expect, it } from "vitest";
import { FOLD_AT, folded, parseArgs, reveal } from "./args";

describe("tool call arguments as the dialog shows them", () => {
  it("lists every argument in order as pretty JSON", () => {
    const a = parseArgs('{"path":"notes/a.md","opts":{"lines":[1,2]},"n":3,"ok":true,"none":null}');
    expect(a.kind).toBe("object");
    if (a.kind !== "object") return;
    expect(a.entries.map((e) => e.key)).toEqual(["path", "opts", "n", "ok", "none"]);
    expect(a.entries[0]!.text).toBe('"notes/a.md"');
    expect(a.entries[1]!.text).toBe('{\n  "lines": [\n    1,\n    2\n  ]\n}');
    expect(a.entries.map((e) => e.text).slice(2)).toEqual(["3", "true", "null"]);
    expect(a.entries.some((e) => e.long)).toBe(false);
  });

  it("folds long values but keeps all of them", () => {
    const long = "가".repeat(FOLD_AT * 3);
    const a = parseArgs(JSON.stringify({ note: long }));
    if (a.kind !== "object") throw new Error("not an object");
    const e = a.entries[0]!;
    expect(e.long).toBe(true);
    expect(e.text).toBe(JSON.stringify(long));
    expect(folded(e.text)).toHaveLength(FOLD_AT + 1);
    expect(folded(e.text).endsWith("…")).toBe(true);
    expect(folded("short")).toBe("short");
  });

  it("shows characters that hide or reorder text as escapes", () => {
    // A right-to-left override makes "txt.exe" read as "exe.txt"; a
    // zero-width space hides inside a path.
    const a = parseArgs(JSON.stringify({ path: "safe\u202Etxt.exe", ["pa\u200Bth"]: "a\uFEFFb" }));
    if (a.kind !== "object") throw new Error("not an object");
    expect(a.entries[0]!.text).toBe('"safe\\u202Etxt.exe"');
    expect(a.entries[1]!.key).toBe("pa\\u200Bth");
    expect(a.entries[1]!.text).toBe('"a\\uFEFFb"');
    expect(reveal("한글 text")).toBe("한글 text");
  });

  it("shows what is not a JSON object as it came", () => {
    expect(parseArgs("not json {")).toEqual({ kind: "raw", text: "not json {" });
    expect(parseArgs("[1,2]")).toEqual({ kind: "raw", text: "[\n  1,\n  2\n]" });
    expect(parseArgs("{}")).toEqual({ kind: "object", entries: [] });
  });
});
