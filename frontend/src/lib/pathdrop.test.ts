// A PathDrop whose screen has gone takes nothing: the drops still waiting
// for their paths are forgotten, and paths or drops told after it closed
// (a transport that tells one late) are not taken.
import { afterEach, describe, expect, it, vi } from "vitest";
import { PathDrop, PATHS_WAIT_MS, type FileDrops } from "./pathdrop";
import type { FileDropHandler } from "../api/transport";

const elementFromPoint = document.elementFromPoint;
afterEach(() => {
  vi.useRealTimers();
  document.elementFromPoint = elementFromPoint;
});

/** setup makes a PathDrop on an element every drop lands on, heard through a window that never lets go. */
function setup() {
  const el = document.createElement("div");
  document.elementFromPoint = () => el;
  const handlers: FileDropHandler[] = [];
  const filedrops: FileDrops = (h) => {
    handlers.push(h);
    return () => {};
  };
  const paths: string[][] = [];
  const files: File[][] = [];
  const drop = new PathDrop(() => el, (p) => paths.push(p), (f) => files.push(f));
  drop.listen(filedrops);
  const tell = (p: string[]) => handlers.forEach((h) => h(10, 10, p));
  return { drop, paths, files, tell };
}

const file = () => new File(["# 회의록"], "회의록.md");

describe("PathDrop", () => {
  it("takes paths, and a drop's contents where none came", () => {
    vi.useFakeTimers();
    const { drop, paths, files, tell } = setup();
    tell(["/home/you/회의록.md"]);
    expect(paths).toEqual([["/home/you/회의록.md"]]);
    vi.advanceTimersByTime(PATHS_WAIT_MS + 1);
    drop.drop([file()]);
    vi.advanceTimersByTime(PATHS_WAIT_MS + 1);
    expect(files).toHaveLength(1);
  });

  for (const [name, end] of [
    ["cancelled", (d: PathDrop) => d.cancel()],
    ["closed", (d: PathDrop) => d.close()],
  ] as const) {
    it(`${name}, forgets the drops waiting for their paths`, () => {
      vi.useFakeTimers();
      const { drop, files } = setup();
      drop.drop([file()]);
      drop.drop([file()]);
      end(drop);
      vi.advanceTimersByTime(PATHS_WAIT_MS * 2);
      expect(files).toHaveLength(0);
    });
  }

  it("closed, takes no paths told late and no new drop", () => {
    vi.useFakeTimers();
    const { drop, paths, files, tell } = setup();
    drop.close();
    tell(["/home/you/회의록.md"]);
    drop.drop([file()]);
    vi.advanceTimersByTime(PATHS_WAIT_MS * 2);
    expect(paths).toHaveLength(0);
    expect(files).toHaveLength(0);
  });

  it("cancelled, still takes later drops", () => {
    vi.useFakeTimers();
    const { drop, files } = setup();
    drop.cancel();
    drop.drop([file()]);
    vi.advanceTimersByTime(PATHS_WAIT_MS + 1);
    expect(files).toHaveLength(1);
  });
});
