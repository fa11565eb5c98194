import { describe, expect, it } from "vitest";
import type { PlanApproval } from "../api/gotypes.gen";
import { add, approval, changed, draftFrom, move, remove, revision, validate, MAX_STEPS } from "./edit";

const plan: PlanApproval = {
  version: "v1",
  round: 1,
  task: "카페 쇼츠",
  sub_tasks: [
    { id: "s1", title: "대본 작성", detail: "30초 대본" },
    { id: "s2", title: "영상 편집", detail: "세로 영상" },
    { id: "s3", title: "썸네일", detail: "" },
  ],
};

describe("plan draft", () => {
  it("approves the plan as proposed without a list when nothing changed", () => {
    const d = draftFrom(plan);
    expect(changed(d, plan)).toBe(false);
    expect(approval(d, plan)).toEqual({ action: "approve" });
  });

  it("sends the edited list after a rename, trimmed", () => {
    const d = draftFrom(plan);
    d.steps[1]!.title = "  영상 편집과 자막 ";
    expect(approval(d, plan)).toEqual({
      action: "approve",
      sub_tasks: [
        { id: "s1", title: "대본 작성", detail: "30초 대본" },
        { id: "s2", title: "영상 편집과 자막", detail: "세로 영상" },
        { id: "s3", title: "썸네일", detail: "" },
      ],
    });
  });

  it.each([
    [0, 2, ["s2", "s3", "s1"], 2],
    [2, 0, ["s3", "s1", "s2"], 0],
    [1, 1, ["s1", "s2", "s3"], 1],
    [0, -5, ["s1", "s2", "s3"], 0],
    [1, 99, ["s1", "s3", "s2"], 2],
    [7, 0, ["s1", "s2", "s3"], 7],
  ])("move(%i, %i) gives %j at %i", (from, to, ids, at) => {
    const d = draftFrom(plan);
    expect(move(d, from, to)).toBe(at);
    expect(d.steps.map((s) => s.id)).toEqual(ids);
  });

  it("adds a step with an empty id and a fresh key, and removes", () => {
    const d = draftFrom(plan);
    const i = add(d, 0);
    expect(i).toBe(1);
    expect(d.steps[1]).toMatchObject({ id: "", title: "" });
    const keys = new Set(d.steps.map((s) => s.key));
    expect(keys.size).toBe(4);
    d.steps[1]!.title = "촬영";
    remove(d, 0);
    expect(approval(d, plan).sub_tasks?.map((s) => s.id)).toEqual(["", "s2", "s3"]);
    remove(d, 42);
    expect(d.steps).toHaveLength(3);
  });

  it("validates empty titles, too few and too many steps", () => {
    const d = draftFrom(plan);
    d.steps[2]!.title = "   ";
    expect(validate(d)).toEqual([{ kind: "empty_title", index: 2 }]);
    d.steps.splice(0);
    expect(validate(d)).toEqual([{ kind: "too_few" }]);
    for (let i = 0; i <= MAX_STEPS; i++) {
      add(d);
      d.steps.at(-1)!.title = `t${i}`;
    }
    expect(validate(d)).toEqual([{ kind: "too_many" }]);
  });

  it("needs feedback to re-plan", () => {
    const d = draftFrom(plan);
    expect(revision(d)).toBeNull();
    d.feedback = "  무료 도구만 ";
    expect(revision(d)).toEqual({ action: "revise", feedback: "무료 도구만" });
  });
});
