// Renaming a conversation in the sidebar: a title the backend refuses
// (longer than 200 characters) keeps its box open with every word typed,
// beside the error that says to shorten it, rather than closing the box
// and throwing the words away; Enter while an input method is still
// composing (Korean) does not send a half-typed title. A deleted
// conversation hands the focus to the row that takes its place, and its
// Undo to the row brought back.
import { afterEach, describe, expect, it, vi } from "vitest";
import { $, $$, cleanup, click, fill, key, send, start } from "../testing/ui";

afterEach(cleanup);

const box = () => document.querySelector<HTMLInputElement>("nav li input.rename");

async function oneConversation(language: "en" | "ko") {
  const ctx = await start({ settings: { language } });
  await send(language === "ko" ? "부산 카페 추천" : "cafes in Busan");
  await vi.waitFor(() => expect($$("nav li .title")).toHaveLength(1));
  click($$("nav li .acts button")[0]!);
  return ctx;
}

describe("renaming a conversation", () => {
  it.each([
    ["en", "The title is too long."],
    ["ko", "제목이 너무 깁니다."],
  ] as const)("keeps a refused title in its box, with the error (%s)", async (language, said) => {
    const { fake } = await oneConversation(language);
    const long = "가나다 long title ".repeat(30);
    fill(box()!, long);
    key(box()!, "Enter");
    await vi.waitFor(() => expect($(".toast.error").textContent).toContain(said));
    expect(box()?.value).toBe(long);
    expect(document.activeElement).toBe(box());
    expect(fake.sessions[0]!.title || "").not.toContain("long title");
    // Shortened, it is taken and the box closes.
    fill(box()!, "짧은 제목");
    key(box()!, "Enter");
    await vi.waitFor(() => expect($("nav li .title").textContent).toBe("짧은 제목"));
    expect(box()).toBeNull();
  });

  it("sends nothing on an Enter that ends a Korean composition", async () => {
    const { fake } = await oneConversation("ko");
    fill(box()!, "회의 준");
    key(box()!, "Enter", { isComposing: true });
    expect(box()?.value).toBe("회의 준");
    expect(fake.calls.some((c) => c.method === "Rename")).toBe(false);
    fill(box()!, "회의 준비");
    key(box()!, "Enter");
    await vi.waitFor(() => expect($("nav li .title").textContent).toBe("회의 준비"));
  });
});

describe("deleting a conversation", () => {
  it("gives the focus to the row that takes its place, the one above for the last, New chat for the only one, and on Undo to the one back", async () => {
    await start();
    for (const text of ["first", "second", "third"]) {
      click("button.new");
      await send(text);
      await vi.waitFor(() => expect($$("nav li .title").map((e) => e.textContent)).toContain(text));
    }
    const titles = () => $$("nav li .title").map((e) => e.textContent);
    expect(titles()).toEqual(["third", "second", "first"]);
    const del = (i: number) => click($$("nav li")[i]!.querySelector<HTMLElement>("button[title='Delete']")!);
    del(1); // second: first moves up into its row
    await vi.waitFor(() => expect(titles()).toEqual(["third", "first"]));
    await vi.waitFor(() => expect(document.activeElement?.closest("li")?.querySelector(".title")?.textContent).toBe("first"));
    del(1); // the last row: the one above
    await vi.waitFor(() => expect(titles()).toEqual(["third"]));
    await vi.waitFor(() => expect(document.activeElement?.closest("li")?.querySelector(".title")?.textContent).toBe("third"));
    del(0);
    await vi.waitFor(() => expect(document.activeElement).toBe($("nav button.new")));
    // Undo: the toast goes, the focus goes to the conversation brought back.
    const undo = $$(".toast button").find((b) => b.textContent === "Undo")!;
    undo.focus(); // as a click or Tab gives it
    click(undo);
    await vi.waitFor(() => expect(titles()).toEqual(["third"]));
    await vi.waitFor(() => expect(document.activeElement).toBe($("nav li button.open")));
  });
});
