// The fake KnowledgeService reads a document as the backend does, so that
// what a Vitest or the visual harness shows of the reader is what the app
// shows.
import { describe, expect, it } from "vitest";
import { FakeBackend } from "../fakeBackend";

describe("FakeKnowledge", () => {
  const doc = (chunks: number) => {
    const fake = new FakeBackend();
    fake.docs.push({ id: "d1", title: "Leave policy", source: "/data/uploads/leave.md", kind: "markdown", size: 10, pages: 0, chunks, created_at: "", updated_at: "" });
    return fake;
  };

  it("reads the chunks of a span in a row with a space between them, as the backend's Span", () => {
    const s = doc(4)["KnowledgeService.Span"]("", "d1", 0, 64);
    expect(s.parts.map((p) => p.text).join("")).toBe(
      "문단 0: 휴가 규정의 한 부분입니다. 연차 휴가는 1년에 15일입니다. <img src=x onerror=alert(1)> 문단 2: 휴가 규정의 한 부분입니다. 문단 3: 휴가 규정의 한 부분입니다.",
    );
  });

  it("starts a section's first chunk bare, as the backend's chunks of a new page", () => {
    const parts = doc(12)["KnowledgeService.Span"]("", "d1", 9, 3).parts;
    expect(parts.map((p) => [p.seq, p.page, p.text.startsWith(" ")])).toEqual([[9, 1, true], [10, 2, false], [11, 2, true]]);
  });

  it("gives a passage its chunk's text trimmed, as stored, and the text around it spaced from it", () => {
    const fake = doc(4);
    fake.texts["d1:2"] = "  Bring the receipts.\n";
    const p = fake["KnowledgeService.Passage"]("", "d1:2", "");
    expect(p.text).toBe("Bring the receipts.");
    expect(p.before.endsWith(" ") && p.after.startsWith(" ")).toBe(true);
  });
});
