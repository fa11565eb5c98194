// Korean speech levels. A Korean reader notices at once when one screen
// says "시작하지 못했어요." beside "연결을 받는 곳이 없습니다", so the
// catalog keeps one register per voice:
//
//   - Wayfinder's own voice (settings, dialogs, errors and hints, notices,
//     the approval dialog, the reader, the trace, decision echoes) ends its
//     statements in 합니다체: -습니다 / -ㅂ니다. Imperatives (-하세요,
//     -주세요) and questions (…할까요?, …인가요?) are as formal UI writes
//     them and stay.
//   - The assistant talking in the chat ends its statements in 해요체
//     (-어요 / -아요 / -에요 / -예요): the lines of backend/agent
//     (msgNoAnswer, msgCancelled, ...) shown from their `line.*` keys.
//     A `line.*` key that records what the PERSON decided ("이 계획을
//     승인했습니다.", shown in place of a plan that no longer waits) is the
//     app's record, not the assistant talking: 합니다체.
//   - Examples of what the person might type (placeholders) are in the
//     person's own words, whatever their register.
import { describe, expect, it } from "vitest";
import ko from "./ko.json";

/** The assistant's lines in the chat (backend/agent's phrases): 해요체. */
const ASSISTANT_SPEAKS = new Set([
  "line.plan_intro",
  "line.plan_fallback",
  "line.plan_recovered",
  "line.plan_again",
  "line.plan_failed",
  "line.plan_stopped",
  "line.plan_stopped_none",
  "line.plan_stopped_guide",
  "line.tool_ask",
  "line.tool_again",
  "line.tool_stopped",
  "line.cancelled",
  "line.no_answer",
  "line.empty",
  "line.out_of_scope",
  "line.remembered",
  "line.remember_failed",
  "empty.title",
]);

/** Placeholders that show what the person might write, in their words. */
const PERSON_SPEAKS = new Set(["memory.addPlaceholder", "tuning.promptPlaceholder"]);

// A word ends where punctuation, a space, a bracket, a dash or the string's
// end follows it. A question mark after it makes it a question, not a
// statement.
const END = String.raw`(?=[.!…,:;)(\]\s"”’—]|$)`;

/** haeyo lists the 해요체 statement endings in s ("읽어요", "돼요", "드릴게요"). */
function haeyo(s: string): string[] {
  return [...s.matchAll(new RegExp(String.raw`[가-힣]*요${END}`, "g"))]
    .map((m) => m[0])
    .filter((w) => !/(세요|필요|중요|주요|개요)$/.test(w)); // imperatives and nouns ending in 요
}

/** hamnida lists the 합니다체 statement endings in s ("읽습니다", "입니다"). */
function hamnida(s: string): string[] {
  return [...s.matchAll(new RegExp(String.raw`[가-힣]*니다${END}`, "g"))].map((m) => m[0]);
}

const catalog = ko as Record<string, string>;

describe("Korean speech levels", () => {
  it("finds the endings of each register, and not imperatives, questions or nouns", () => {
    expect(haeyo("시작하지 못했어요. 이 파일이에요: a.md")).toEqual(["못했어요", "파일이에요"]);
    expect(haeyo("실행돼요(stdio), 보여 드릴게요")).toEqual(["실행돼요", "드릴게요"]);
    expect(haeyo("다시 시도하세요. 삭제할까요? 실행 중인가요? 필요 없는 파일")).toEqual([]);
    expect(hamnida("시작하지 못했습니다. 파일입니다: a.md")).toEqual(["못했습니다", "파일입니다"]);
    expect(hamnida("다시 해 주세요.")).toEqual([]);
  });

  it("has Wayfinder's own voice end its statements in 합니다체", () => {
    const mixed = Object.entries(catalog)
      .filter(([k]) => !ASSISTANT_SPEAKS.has(k) && !PERSON_SPEAKS.has(k))
      .flatMap(([k, v]) => (haeyo(v).length ? [`${k}: ${haeyo(v).join(", ")} — ${v}`] : []));
    expect(mixed, "해요체 in the app's voice: write -습니다/-입니다/-됩니다").toEqual([]);
  });

  it("has the assistant speak 해요체 throughout", () => {
    for (const k of ASSISTANT_SPEAKS) {
      const v = catalog[k];
      expect(v, `${k} is not in ko.json`).toBeDefined();
      expect(hamnida(v!), `${k}: 합니다체 in the assistant's line — ${v}`).toEqual([]);
    }
  });
});
