// What people tune: a system prompt, the temperature and the context size,
// in Settings for every conversation and in one conversation's own
// settings dialog (opened from the chat header), checked in place as the
// backend checks them.
import { afterEach, describe, expect, it, vi } from "vitest";
import { $, cleanup, click, fill, send, start, toggle } from "../testing/ui";
import { checkTuning } from "./tuning";

afterEach(cleanup);

/** box is the checkbox in the same cell as the field with this id ("its own", "set it"). */
function box(id: string): HTMLInputElement {
  return $(`#${id}`).parentElement!.querySelector("input[type='checkbox']") as HTMLInputElement;
}

describe("checkTuning", () => {
  it.each([
    ["nothing set", [null, null, null, false], []],
    ["the model's own context (global only)", ["", null, 0, true], []],
    ["context 0 for a conversation", [null, null, 0, false], ["context"]],
    ["context too small", ["", null, 1024, true], ["context"]],
    ["context too large", ["", null, 262145, true], ["context"]],
    ["context not whole", ["", null, 4096.5, true], ["context"]],
    ["temperature bounds", ["", 0, 8192, true], []],
    ["temperature 2", ["", 2, 8192, true], []],
    ["temperature above 2", ["", 2.1, 8192, true], ["temperature"]],
    ["temperature below 0", ["", -0.1, 8192, true], ["temperature"]],
    ["Korean prompt at the limit", ["가".repeat(4000), null, null, false], []],
    ["prompt over the limit", ["가".repeat(4001), null, null, false], ["prompt"]],
  ] as const)("%s", (_, args, want) => {
    expect(checkTuning(...(args as unknown as Parameters<typeof checkTuning>))).toEqual(want);
  });
});

describe("Settings", () => {
  it("saves the system prompt, temperature and context size for every conversation", async () => {
    const { fake } = await start();
    click("button[aria-label='Settings']");
    await vi.waitFor(() => expect(document.querySelector("#set-tune-prompt")).not.toBeNull());
    fill("#set-tune-prompt", "  Answer briefly.  ");
    // The temperature follows the model until it is set.
    expect($("#set-tune-temp").textContent).toBe("The model's default");
    toggle(box("set-tune-temp"), true);
    fill("#set-tune-temp", "3");
    expect($("#set-tune-temp-help").textContent).toBe("Choose a number from 0 to 2.");
    expect((document.querySelector("dialog[open] button[type='submit']") as HTMLButtonElement).disabled).toBe(true);
    fill("#set-tune-temp", "0.4");
    fill("#set-tune-ctx", "16384");
    (document.querySelector("dialog[open] button[type='submit']") as HTMLButtonElement).click();
    await vi.waitFor(() => expect(fake.settings.system_prompt).toBe("Answer briefly."));
    expect(fake.settings.temperature).toBe(0.4);
    expect(fake.settings.context_tokens).toBe(16384);
  });
});

describe("conversation settings", () => {
  it("sets a conversation's own prompt, temperature and context size, shows them in the header, and resets them", async () => {
    const { fake } = await start({ settings: { language: "en", system_prompt: "Be kind.", temperature: 0.7 } });
    await send("hello");
    await vi.waitFor(() => expect(document.querySelector("[data-testid='conv-settings']")).not.toBeNull());
    click("[data-testid='conv-settings']");
    await vi.waitFor(() => expect(document.querySelector("dialog[open] #conv-tune-prompt")).not.toBeNull());
    // Everything follows the global settings, shown beside each field.
    expect($("#conv-tune-prompt").textContent).toBe("Be kind.");
    expect($("#conv-tune-temp").textContent).toBe("0.7");
    expect($("#conv-tune-ctx").textContent).toBe("8,192 tokens");

    toggle(box("conv-tune-prompt"), true);
    fill("#conv-tune-prompt", "해적처럼 말해.");
    toggle(box("conv-tune-temp"), true);
    fill("#conv-tune-temp", "0.2");
    toggle(box("conv-tune-ctx"), true);
    fill("#conv-tune-ctx", "1000");
    expect($("#conv-tune-ctx-help").textContent?.trim()).toBe("Choose 2,048 to 262,144 tokens.");
    fill("#conv-tune-ctx", "4096");
    (document.querySelector("dialog[open] button[type='submit']") as HTMLButtonElement).click();
    await vi.waitFor(() => expect(fake.calls.some((c) => c.method === "SetSettings")).toBe(true));
    expect(fake.calls.find((c) => c.method === "SetSettings")!.args).toEqual(["s-1", { system_prompt: "해적처럼 말해.", temperature: 0.2, context_tokens: 4096 }]);
    await vi.waitFor(() => expect($("[data-testid='conv-settings']").textContent).toContain("own prompt · temperature 0.2 · 4,096 tokens"));

    // Reopened, it shows the conversation's own values; reset follows Settings again.
    click("[data-testid='conv-settings']");
    await vi.waitFor(() => expect((document.querySelector("dialog[open] #conv-tune-prompt") as HTMLTextAreaElement | null)?.value).toBe("해적처럼 말해."));
    expect(($("#conv-tune-ctx") as HTMLInputElement).value).toBe("4096");
    [...document.querySelectorAll<HTMLButtonElement>("dialog[open] button")].find((b) => b.textContent === "Use the global settings")!.click();
    await vi.waitFor(() => expect(fake.calls.filter((c) => c.method === "SetSettings")).toHaveLength(2));
    expect(fake.calls.filter((c) => c.method === "SetSettings")[1]!.args).toEqual(["s-1", {}]);
    await vi.waitFor(() => expect($("[data-testid='conv-settings']").textContent).not.toContain("own prompt"));
  });

  it("says a value the backend refuses beside its field, focused", async () => {
    const { fake } = await start({ settings: { language: "ko" } });
    await send("hello");
    await vi.waitFor(() => expect(document.querySelector("[data-testid='conv-settings']")).not.toBeNull());
    fake["ChatService.SetSettings"] = () => {
      throw new Error(JSON.stringify({ code: "settings_invalid", message: "temperature must be between 0 and 2", fields: [{ field: "temperature", code: "temperature", args: { max: "2" } }] }));
    };
    click("[data-testid='conv-settings']");
    await vi.waitFor(() => expect(document.querySelector("dialog[open] #conv-tune-prompt")).not.toBeNull());
    toggle(box("conv-tune-temp"), true);
    fill("#conv-tune-temp", "1.5");
    (document.querySelector("dialog[open] button[type='submit']") as HTMLButtonElement).click();
    await vi.waitFor(() => expect($("#conv-tune-temp").getAttribute("aria-invalid")).toBe("true"), { timeout: 5000 });
    expect($("#conv-tune-temp-help").textContent).toMatch(/[가-힣]/);
    await vi.waitFor(() => expect(document.activeElement).toBe($("#conv-tune-temp")), { timeout: 5000 });
    expect($("dialog[open] [role=alert] .detail").textContent).toBe("고칠 값이 1개 있습니다. 그 항목 옆에 표시했습니다.");
    expect($("dialog[open] [role=alert]").textContent).not.toContain("must be");
    // Changed, the mark goes.
    fill("#conv-tune-temp", "1.2");
    expect($("#conv-tune-temp").getAttribute("aria-invalid")).toBe("false");
  });
});
