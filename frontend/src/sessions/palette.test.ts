// The Ctrl+K palette dates each conversation as the sidebar does, so two
// with the same title are told apart, and marks one waiting for a
// decision; in English and Korean.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Session } from "../api/gotypes.gen";
import { $, cleanup, key, start } from "../testing/ui";
import { FakeBackend } from "../testing/fakeBackend";
import { when } from "./title";

afterEach(cleanup);

const session = (id: string, day: number, pending = false): Session => ({
  id, title: "회의 일정을 정리하는 좋은 방법을 알려 줘", created_at: `2026-11-0${day}T10:00:00Z`, updated_at: `2026-11-0${day}T10:00:00Z`,
  message_count: 2, pending_approval: pending, model: "",
});

async function palette(language: "en" | "ko") {
  const fake = new FakeBackend({ settings: { language } });
  fake.sessions.push(session("s-a", 3), session("s-b", 5, true));
  await start({}, fake);
  key(window, "k", { ctrlKey: true, code: "KeyK" });
  const dialog = $("dialog.palette") as HTMLDialogElement;
  await vi.waitFor(() => expect(dialog.querySelectorAll("[role=option]")).toHaveLength(2), { timeout: 5000 });
  return [...dialog.querySelectorAll("[role=option]")].map((o) => ({
    name: o.querySelector(".name")?.textContent,
    when: o.querySelector(".when")?.textContent,
    pending: o.querySelector(".pending")?.textContent ?? null,
  }));
}

describe("the Ctrl+K palette", () => {
  it("dates conversations with one title apart, in English", async () => {
    const title = "회의 일정을 정리하는 좋은 방법을 알려 줘";
    expect(await palette("en")).toEqual([
      { name: title, when: "Nov 5", pending: "waiting for you" },
      { name: title, when: "Nov 3", pending: null },
    ]);
  });

  it("and in Korean", async () => {
    const rows = await palette("ko");
    expect(rows.map((r) => [r.when, r.pending])).toEqual([["11월 5일", "승인 대기"], ["11월 3일", null]]);
  });
});

describe("when", () => {
  it("is the time for today's and the day for older ones", () => {
    const now = new Date(2026, 10, 27, 20, 0);
    expect(when(new Date(2026, 10, 27, 19, 42).toISOString(), now)).toBe("7:42 PM");
    expect(when(new Date(2026, 10, 3, 9, 0).toISOString(), now)).toBe("Nov 3");
    expect(when("not a date", now)).toBe("");
  });
});
