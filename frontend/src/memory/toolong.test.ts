// A memory typed or pasted longer than fits says so under the box, with
// how long it is, in English and Korean: Remember stays off, and pressing
// Enter no longer does nothing without a word.
import { afterEach, describe, expect, it, vi } from "vitest";
import { $, $$, cleanup, click, fill, start } from "../testing/ui";

afterEach(cleanup);

async function openMemory(language: "en" | "ko") {
  const ctx = await start({ settings: { language } });
  click($$(".views button")[1]!);
  await vi.waitFor(() => expect(document.querySelector("#mem-new")).not.toBeNull(), { timeout: 5000 });
  return ctx;
}

describe("a memory too long to remember", () => {
  it.each([
    ["en", "This memory is too long; keep it under 500 characters. 612/500"],
    ["ko", "너무 깁니다. 500자 이내로 줄여 주세요. 612/500"],
  ] as const)("says why in %s, and goes once it fits", async (language, said) => {
    const { fake } = await openMemory(language);
    const remember = () => $("form.add button[type='submit']") as HTMLButtonElement;
    fill("#mem-new", "가".repeat(612));
    expect($("#mem-new-error").textContent).toBe(said);
    expect($("#mem-new").getAttribute("aria-invalid")).toBe("true");
    expect($("#mem-new").getAttribute("aria-describedby")).toBe("mem-new-error");
    expect(remember().disabled).toBe(true);

    fill("#mem-new", "가".repeat(500));
    expect(document.querySelector("#mem-new-error")).toBeNull();
    expect($("#mem-new").getAttribute("aria-invalid")).toBe("false");
    click(remember());
    await vi.waitFor(() => expect(fake.memories.map((m) => m.text)).toContain("가".repeat(500)), { timeout: 5000 });
  });

  it("says nothing while the box is empty", async () => {
    await openMemory("en");
    expect(document.querySelector("#mem-new-error")).toBeNull();
    fill("#mem-new", "   ");
    expect(document.querySelector("#mem-new-error")).toBeNull();
  });
});
