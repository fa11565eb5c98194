// Where a notice shows: below the header, in the page's flow, so the page
// moves down instead of being covered. At 800 px an import's error, laid
// over the page, hid the Memory screen's heading and its "Forget all".
import { afterEach, describe, expect, it, vi } from "vitest";
import { $, cleanup, click, start } from "../testing/ui";

afterEach(cleanup);

describe("an import refused on the Memory screen", () => {
  for (const [language, refused] of [
    ["en", "This file is not a Wayfinder conversation export, so nothing was imported."],
    ["ko", "Wayfinder 대화 내보내기 파일이 아니어서 아무것도 가져오지 않았습니다."],
  ] as const) {
    it(`says why between the header and the page, covering neither (${language})`, async () => {
      await start({ settings: { language } });
      click(".views button.view:nth-child(2)");
      await vi.waitFor(() => expect(document.querySelector("#mem-title")).not.toBeNull());
      const input = $("[data-testid='import-conversations']") as HTMLInputElement;
      Object.defineProperty(input, "files", { value: [new File(["# notes"], "notes.md", { type: "text/markdown" })], configurable: true });
      input.dispatchEvent(new Event("change", { bubbles: true }));
      await vi.waitFor(() => expect($(".toast.error").textContent).toContain(refused));

      // In the main column's flow: header, then the notices, then the page.
      const column = [...$("main.main").children].map((c) => c.className.split(" ")[0]);
      expect(column).toEqual(["topbar", "toasts", "content"]);
      expect($(".toasts").contains($(".toast.error"))).toBe(true);
      expect($(".content").contains($("#mem-title"))).toBe(true);

      // Dismissed, the room goes too.
      click(".toast.error button");
      await vi.waitFor(() => expect(document.querySelector(".toasts")).toBeNull());
    });
  }
});
