// Save and resend of a conversation's only message: the backend titles
// the conversation after the new words (store.StartTurn) and says so with
// chat.sessions, on which the sidebar reloads its list; a title the person
// chose stays. The window needs nothing more than the event it already
// gets.
import { afterEach, describe, expect, it, vi } from "vitest";
import { $, $$, cleanup, click, fill, send, start } from "../testing/ui";

afterEach(cleanup);

const titles = () => $$(".sidebar .title").map((e) => e.textContent?.trim());
const answered = () => document.querySelector("article[data-role='assistant'][data-status='complete']");

/** ask sends text and waits for the whole answer. */
async function ask(text: string) {
  await send(text);
  await vi.waitFor(() => expect(answered()).not.toBeNull());
}

/** edit changes the only message to text, saves it and waits for the new answer. */
async function edit(text: string) {
  click("button.edit-last");
  fill("article[data-role='user'] textarea", text);
  click("button.save-edit");
  await vi.waitFor(() => expect($("article[data-role='user'] .user-text").textContent).toBe(text));
  await vi.waitFor(() => expect(answered()).not.toBeNull());
}

const korean = { settings: { language: "ko" } };

describe("editing the only message", () => {
  it("titles the conversation after the new words in the sidebar", async () => {
    await start(korean);
    await ask("서울 인구는?");
    await vi.waitFor(() => expect(titles()).toEqual(["서울 인구는?"]));
    await edit("부산 인구는?");
    await vi.waitFor(() => expect(titles()).toEqual(["부산 인구는?"]));
  });

  it("keeps a title the person chose", async () => {
    const { fake } = await start(korean);
    await ask("서울 인구는?");
    await vi.waitFor(() => expect(titles()).toEqual(["서울 인구는?"]));
    const sid = fake.sessions[0]!.id;
    fake["ChatService.Rename"](sid, "인구 조사");
    fake.emit("chat.sessions", { session_id: sid });
    await vi.waitFor(() => expect(titles()).toEqual(["인구 조사"]));
    await edit("부산 인구는?");
    expect(titles()).toEqual(["인구 조사"]);
  });
});
