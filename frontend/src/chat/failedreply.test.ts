// A failed reply offers one way to ask again: the error banner's "Try again"
// (what the error's advice says to do), not a second "Regenerate" beside it.
import { afterEach, describe, expect, it, vi } from "vitest";
import { $, cleanup, fill, key, start } from "../testing/ui";

afterEach(cleanup);

describe("a failed reply", () => {
  for (const [language, retry, regenerate] of [
    ["en", "Try again", "Regenerate"],
    ["ko", "다시 시도", "다시 생성"],
  ] as const) {
    it(`shows only the banner's retry (${language})`, async () => {
      const { fake } = await start({
        settings: { language },
        reply: () => "A partial answer that is cut off half way through",
        failWith: { code: "ollama_error", message: "500 Internal Server Error" },
      });
      fill("#composer-input", "question");
      key($("#composer-input"), "Enter");
      await vi.waitFor(() => expect(document.querySelector("article[data-status='error'] [role=alert]")).not.toBeNull());
      const reply = $("article[data-status='error']");
      const buttons = [...reply.querySelectorAll("button")].map((b) => b.textContent!.trim());
      expect(buttons).toContain(retry);
      expect(reply.querySelector("button.regenerate")).toBeNull();
      expect(buttons.some((b) => b.includes(regenerate))).toBe(false);
      // Copying the partial text stays.
      expect(reply.querySelector("button.copy-msg")).not.toBeNull();

      // Asked again in its place: the question is shown once, not twice.
      (reply.querySelector("[role=alert] button") as HTMLButtonElement).click();
      await vi.waitFor(() => expect(fake.calls.filter((c) => c.method === "EditLast")).toHaveLength(1));
      expect(fake.calls.filter((c) => c.method === "Send")).toHaveLength(1);
      await vi.waitFor(() => expect(document.querySelectorAll("article[data-role='assistant']")).toHaveLength(1));
      expect([...document.querySelectorAll("article[data-role='user']")].map((a) => a.textContent)).toHaveLength(1);
    });
  }

  it("keeps Regenerate on a finished reply", async () => {
    await start({ settings: { language: "en" }, reply: () => "Fine." });
    fill("#composer-input", "question");
    key($("#composer-input"), "Enter");
    await vi.waitFor(() => expect(document.querySelector("article[data-status='complete'] button.regenerate")).not.toBeNull());
  });
});
