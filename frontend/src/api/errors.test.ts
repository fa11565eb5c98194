import { describe, expect, it } from "vitest";
import { ApiError, parseError } from "./errors";

describe("parseError", () => {
  it.each([
    ["ErrorInfo JSON string", '{"code":"timeout","message":"no answer in 60s","hint":"try a smaller model"}', { code: "timeout", message: "no answer in 60s", hint: "try a smaller model" }],
    ["JSON with blank hint", '{"code":"busy","message":"m","hint":""}', { code: "busy", message: "m" }],
    ["padded JSON", '  {"code":"busy","message":"m"}\n', { code: "busy", message: "m" }],
    ["plain string", "connection refused", { code: "internal", message: "connection refused" }],
    ["JSON of the wrong shape", '{"error":"x"}', { code: "internal", message: '{"error":"x"}' }],
    ["broken JSON", "{nope", { code: "internal", message: "{nope" }],
    ["empty string", "", { code: "internal", message: "Unknown error" }],
    ["Error with JSON message", new Error('{"code":"not_found","message":"gone"}'), { code: "not_found", message: "gone" }],
    ["Error with text", new Error("bad"), { code: "internal", message: "bad" }],
    ["object ErrorInfo", { code: "invalid_input", message: "x", extra: 1 }, { code: "invalid_input", message: "x" }],
    ["number", 42, { code: "internal", message: "42" }],
    ["ApiError", new ApiError({ code: "busy", message: "b" }), { code: "busy", message: "b" }],
  ])("%s", (_name, raw, want) => {
    expect(parseError(raw)).toEqual(want);
  });
});
