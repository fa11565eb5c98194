// What becomes of a file attached in a chat while it embeds: stopped, it
// stays, found by its words, and its row says so until dismissed (the
// passages not embedded yet are paused in the backend's background
// embedding: nothing moves until the row's Resume, and the row then says
// its meaning comes and that it is found by it too); added to the
// library, it goes at once (the backend stops its import and lets the
// embedding go on there), the button says it is busy until the backend
// answers, and a row says where the file went. In English and Korean.
import { afterEach, describe, expect, it, vi } from "vitest";
import { $, attach, cleanup, click, fill, start, attachRows as rows, attachRow as row, attachChip as chip } from "../testing/ui";
import { setLang } from "../i18n/i18n.svelte";

afterEach(cleanup);

const words = {
  en: {
    embedding: "Ready for questions · indexing its meaning",
    stopped: "Ready for questions · found by its words; indexing its meaning is paused — 2 of 4 passages left",
    pausedHelp: "Paused until you resume it, or until Wayfinder next starts",
    resume: "Resume",
    resumeLabel: "Resume indexing the meaning of slow-report.md",
    resumed: "Ready for questions · found by its words now; search by meaning comes later, in the background",
    embedded: "Ready for questions · now found by its meaning too: the background embedding is done",
    toLibrary: "Add to library",
    adding: "Adding…",
    added: "Added to your library: every conversation finds it by its words and by its meaning",
    addedEmbedding: "Added to your library: every conversation finds it by its words now; its meaning is indexed in the background",
    dismiss: "Dismiss",
    stopLabel: "Stop indexing the meaning of slow-report.md",
    stopHelp: "Pauses indexing its meaning, to free your computer: the file stays, found by its words. Resume it when you like; it resumes by itself when Wayfinder next starts",
  },
  ko: {
    embedding: "지금 질문할 수 있습니다 · 의미를 색인하는 중",
    stopped: "지금 질문할 수 있습니다 · 키워드로 찾습니다. 의미 색인은 멈춰 두었습니다 — 구절 4개 중 2개 남음",
    pausedHelp: "다시 시작하거나 Wayfinder를 다음에 열 때까지 멈춥니다",
    resume: "다시 시작",
    resumeLabel: "slow-report.md 의미 색인 다시 시작",
    resumed: "지금 질문할 수 있습니다 · 지금은 키워드로 찾습니다. 의미 검색은 나중에 뒤에서 준비합니다",
    embedded: "지금 질문할 수 있습니다 · 이제 의미로도 찾습니다. 뒤에서 하던 임베딩을 마쳤습니다",
    toLibrary: "지식 베이스에 추가",
    adding: "추가하는 중…",
    added: "지식 베이스에 추가했습니다. 이제 모든 대화에서 키워드와 의미로 찾습니다",
    addedEmbedding: "지식 베이스에 추가했습니다. 이제 모든 대화에서 키워드로 찾고, 의미 색인은 뒤에서 이어서 합니다",
    dismiss: "닫기",
    stopLabel: "slow-report.md 의미 색인 중지",
    stopHelp: "컴퓨터를 쉬게 하도록 의미 색인을 멈춥니다. 파일은 그대로 두고 키워드로 찾습니다. 원할 때 다시 시작하고, Wayfinder를 다음에 열면 저절로 이어서 합니다",
  },
} as const;

const libraryButton = (name: string) => chip(name)!.querySelector<HTMLButtonElement>("button")!;

/** attachSlow starts the app in lang and attaches a file the fake holds at its embedding. */
async function attachSlow(lang: "en" | "ko") {
  const { fake } = await start({ settings: { language: lang } });
  setLang(lang);
  attach([new File(["# 큰 보고서"], "slow-report.md")]);
  return { say: words[lang], fake };
}

describe("a file attached in a chat, while it embeds", () => {
  it("stopped, stays attached and found by its words, its meaning paused until Resume; its row says so until dismissed, and then that it is found by its meaning too", async () => {
    for (const lang of ["en", "ko"] as const) {
      const { say, fake } = await attachSlow(lang);
      await vi.waitFor(() => expect(row().querySelector(".stage")!.textContent).toBe(say.embedding), { timeout: 5000 });
      // Before it is pressed, Stop says what it stops: the meaning, not the file.
      const stop = row().querySelector<HTMLButtonElement>("button.stop")!;
      expect(stop.getAttribute("aria-label")).toBe(say.stopLabel);
      expect(stop.title).toBe(say.stopHelp);
      click(stop);

      await vi.waitFor(() => expect(row().dataset.meaning).toBe("stopped"), { timeout: 5000 });
      expect(row().querySelector(".stage")!.textContent).toBe(say.stopped);
      expect(row().querySelector("progress")).toBeNull();
      expect(row().querySelector("button.stop")).toBeNull();
      expect(chip("slow-report.md")).toBeTruthy();
      // It holds nothing up.
      fill("#composer-input", "요약해 줘");
      expect(($("button.send") as HTMLButtonElement).disabled).toBe(false);

      // Paused: the background embedding leaves it alone.
      expect(row().querySelector<HTMLElement>(".stage")!.title).toBe(say.pausedHelp);
      fake.embedLaterDone();
      expect(row().dataset.meaning).toBe("stopped");
      expect(fake.attached[Object.keys(fake.attached)[0]!]![0]!.embed_pending).toBe(true);
      const resume = row().querySelector<HTMLButtonElement>("button.resume")!;
      expect(resume.textContent).toBe(say.resume);
      expect(resume.getAttribute("aria-label")).toBe(say.resumeLabel);
      click(resume);
      await vi.waitFor(() => expect(row().dataset.meaning).toBe("pending"), { timeout: 5000 });
      expect(row().querySelector(".stage")!.textContent).toBe(say.resumed);
      expect(row().querySelector("button.resume")).toBeNull();
      expect(fake.calls.filter((c) => c.method === "ResumeEmbedding").map((c) => c.args)).toEqual([[`/data/uploads/.conversations/${Object.keys(fake.attached)[0]}/slow-report.md`]]);

      // The background embedding catches up: the row says so, still until dismissed.
      fake.embedLaterDone();
      await vi.waitFor(() => expect(row().dataset.meaning).toBe("embedded"), { timeout: 5000 });
      expect(row().querySelector(".stage")!.textContent).toBe(say.embedded);
      click(row().querySelector<HTMLElement>(`button[aria-label='${say.dismiss}']`)!);
      expect(rows()).toHaveLength(0);
      expect(chip("slow-report.md")).toBeTruthy();
      cleanup();
    }
  });

  it("added to the library, goes at once: its import stops, the button says it is busy, a row says where it went and that its meaning is indexed there", async () => {
    for (const lang of ["en", "ko"] as const) {
      const { say, fake } = await attachSlow(lang);
      // Found by its words, it is listed at once, and can join the library.
      await vi.waitFor(() => expect(row().querySelector(".stage")!.textContent).toBe(say.embedding), { timeout: 5000 });
      await vi.waitFor(() => expect(chip("slow-report.md")).toBeTruthy(), { timeout: 5000 });
      expect(libraryButton("slow-report.md").textContent).toBe(say.toLibrary);
      expect(libraryButton("slow-report.md").disabled).toBe(false);

      let release!: () => void;
      fake.libraryGate = new Promise((r) => (release = r));
      click(libraryButton("slow-report.md"));
      // Busy until the backend answers: a second click does nothing, and the row's Stop waits too.
      await vi.waitFor(() => expect(libraryButton("slow-report.md").textContent).toBe(say.adding), { timeout: 5000 });
      expect(libraryButton("slow-report.md").disabled).toBe(true);
      expect(libraryButton("slow-report.md").getAttribute("aria-busy")).toBe("true");
      expect(row().querySelector<HTMLButtonElement>("button.stop")!.disabled).toBe(true);
      click(libraryButton("slow-report.md"));
      release();

      await vi.waitFor(() => expect(row().dataset.stage).toBe("library"), { timeout: 5000 });
      expect(fake.calls.filter((c) => c.method === "AddToLibrary")).toHaveLength(1);
      expect(Object.keys(fake.held)).toHaveLength(0); // its import was stopped, by the backend
      expect(fake.docs.map((d) => d.source)).toEqual(["/data/uploads/slow-report.md"]);
      await vi.waitFor(() => expect(document.querySelector("[data-testid='attachments'] .files")).toBeNull(), { timeout: 5000 });
      // One row, the note: not the import's end (its stop) beside it.
      await vi.waitFor(() => expect(rows()).toHaveLength(1), { timeout: 5000 });
      expect(row().textContent).toContain("slow-report.md");
      expect(row().querySelector(".stage")!.textContent).toBe(say.addedEmbedding);
      expect(row().querySelector("progress")).toBeNull();
      fill("#composer-input", "요약해 줘");
      expect(($("button.send") as HTMLButtonElement).disabled).toBe(false);
      click(row().querySelector<HTMLElement>(`button[aria-label='${say.dismiss}']`)!);
      expect(document.querySelector("[data-testid='attachments']")).toBeNull();
      cleanup();
    }
  });

  it("added to the library, is not listed again by a load of the conversation's files that answers late", async () => {
    const { fake } = await start({ settings: { language: "en" } });
    attach([new File(["# 규정"], "규정.md")]);
    await vi.waitFor(() => expect([!!chip("규정.md"), rows().length]).toEqual([true, 0]), { timeout: 5000 });
    // A load asked before the file left (the import's end, the stream
    // coming back) answers after the one that follows Add to library.
    const attached = fake["KnowledgeService.Attached"].bind(fake);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let calls = 0;
    fake["KnowledgeService.Attached"] = ((sid: string) => {
      const now = attached(sid);
      return ++calls === 1 ? gate.then(() => now) : now;
    }) as typeof fake["KnowledgeService.Attached"];
    fake.emit("transport.reconnected", null);
    await vi.waitFor(() => expect(calls).toBe(1), { timeout: 5000 });
    click(libraryButton("규정.md"));
    await vi.waitFor(() => expect(row().dataset.stage).toBe("library"), { timeout: 5000 });
    await vi.waitFor(() => expect(calls).toBe(2), { timeout: 5000 });
    await vi.waitFor(() => expect(chip("규정.md")).toBeUndefined(), { timeout: 5000 });
    release();
    await gate;
    await new Promise((r) => setTimeout(r, 0));
    expect(chip("규정.md")).toBeUndefined();
  });

  it("removed from the conversation after a yes, goes with its row, though it still embeds; Keep and Escape keep it", async () => {
    const say = {
      en: { label: "Remove slow-report.md from this conversation", ask: "Remove it from this conversation? Its copy here is deleted.", yes: "Remove", no: "Keep" },
      ko: { label: "이 대화에서 slow-report.md 삭제", ask: "이 대화에서 삭제할까요? 여기 보관한 사본도 지웁니다.", yes: "삭제", no: "그대로 두기" },
    } as const;
    for (const lang of ["en", "ko"] as const) {
      const { fake } = await start({ settings: { language: lang } });
      setLang(lang);
      attach([new File(["# 큰 보고서"], "slow-report.md"), new File(["# 규정"], "규정.md")]);
      await vi.waitFor(() => expect(row().querySelector(".stage")!.textContent).toBe(words[lang].embedding), { timeout: 5000 });
      await vi.waitFor(() => expect(chip("slow-report.md")).toBeTruthy(), { timeout: 5000 });
      const cross = () => chip("slow-report.md")!.querySelector<HTMLButtonElement>(`button[aria-label='${say[lang].label}']`)!;
      expect(cross().textContent).toBe("✕");

      // Keep, then Escape: nothing is removed.
      click(cross());
      expect(chip("slow-report.md")!.querySelector(".ask")!.textContent).toBe(say[lang].ask);
      expect(document.activeElement).toBe(chip("slow-report.md")!.querySelector("button.remove-yes"));
      click(chip("slow-report.md")!.querySelector<HTMLElement>("button.remove-no")!);
      expect(chip("slow-report.md")!.querySelector(".ask")).toBeNull();
      click(cross());
      chip("slow-report.md")!.querySelector("button.remove-yes")!.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
      await vi.waitFor(() => expect(chip("slow-report.md")!.querySelector(".ask")).toBeNull(), { timeout: 5000 });
      expect(fake.calls.filter((c) => c.method === "RemoveAttached")).toHaveLength(0);

      // Yes: it goes, row and all, though it was still embedding; the other file goes on.
      click(cross());
      const yes = chip("slow-report.md")!.querySelector<HTMLButtonElement>("button.remove-yes")!;
      expect(yes.textContent).toBe(say[lang].yes);
      click(yes);
      await vi.waitFor(() => expect(chip("slow-report.md")).toBeUndefined(), { timeout: 5000 });
      expect(fake.calls.filter((c) => c.method === "RemoveAttached").map((c) => c.args[1])).toEqual([`/data/uploads/.conversations/${fake.sessions[0]!.id}/slow-report.md`]);
      expect(Object.keys(fake.held)).toHaveLength(0);
      await vi.waitFor(() => expect(chip("규정.md")).toBeTruthy(), { timeout: 5000 });
      await vi.waitFor(() => expect(rows()).toHaveLength(0), { timeout: 5000 });
      expect(fake.attached[fake.sessions[0]!.id]!.map((d) => d.title)).toEqual(["규정.md"]);
      cleanup();
    }
  });

  it("added to the library once in, says it is there for every conversation", async () => {
    const { fake } = await start({ settings: { language: "ko" } });
    setLang("ko");
    attach([new File(["# 규정"], "규정.md")]);
    await vi.waitFor(() => expect([!!chip("규정.md"), rows().length]).toEqual([true, 0]), { timeout: 5000 });
    click(libraryButton("규정.md"));
    await vi.waitFor(() => expect(row().dataset.stage).toBe("library"), { timeout: 5000 });
    expect(row().querySelector(".stage")!.textContent).toBe(words.ko.added);
    expect(fake.docs.map((d) => d.source)).toEqual(["/data/uploads/규정.md"]);
  });
});
