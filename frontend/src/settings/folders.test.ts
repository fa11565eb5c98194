// The folder list in Settings (issue 22.1): folders read_file may read are
// granted here explicitly, listed with what they allow, changed and
// revoked at once; grants an older version made on import are explained.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { FakeOptions } from "../testing/fakeBackend";
import { $ as el, cleanup, click, fill, openSettings, start, stop } from "../testing/ui";

afterEach(cleanup);

describe("folders in Settings", () => {
  it("grants, shows what a grant allows, changes it and revokes it", async () => {
    const { fake } = await start();
    await openSettings();
    expect(el("[data-testid='folder-grants']").textContent).toContain("No folder yet");
    fill("#folder-path", "/home/you/notes");
    click("button.grant");
    await vi.waitFor(() => expect(document.querySelector("li[data-folder='/home/you/notes']")).not.toBeNull());
    const row = el("li[data-folder='/home/you/notes']");
    expect(row.textContent).toContain("Files");
    expect((el("li[data-folder='/home/you/notes'] .hidden-toggle") as HTMLInputElement).checked).toBe(false);
    expect((el("li[data-folder='/home/you/notes'] .secrets-toggle") as HTMLInputElement).checked).toBe(false);
    expect((el("#folder-path") as HTMLInputElement).value).toBe("");

    click("li[data-folder='/home/you/notes'] .hidden-toggle");
    await vi.waitFor(() => expect(fake.settings.folder_grants[0]?.allow_hidden).toBe(true));
    expect(fake.settings.folder_grants[0]?.allow_secrets).toBe(false);

    // Saving the settings form afterwards keeps the grant.
    click("dialog[open] button[type=submit]");
    await vi.waitFor(() => expect(fake.calls.some((c) => c.method === "Save")).toBe(true));
    expect(fake.settings.folder_grants).toHaveLength(1);

    await vi.waitFor(() => expect(document.querySelector("dialog[open]")).toBeNull());
    await openSettings();
    await vi.waitFor(() => expect(document.querySelector("dialog[open] li[data-folder='/home/you/notes'] button.revoke")).not.toBeNull());
    click("li[data-folder='/home/you/notes'] button.revoke");
    await vi.waitFor(() => expect(document.querySelector("li[data-folder='/home/you/notes']")).toBeNull());
    expect(fake.settings.folder_grants).toHaveLength(0);
  });

  it("says why a folder cannot be granted", async () => {
    await start();
    await openSettings();
    fill("#folder-path", "/no/such/folder");
    click("button.grant");
    await vi.waitFor(() => expect(document.querySelector("[data-testid='folder-grants'] [role='alert']")?.textContent).toContain("There is no such folder"));
  });

  it("lists the folders imports used to make readable, to grant again or dismiss", async () => {
    const { fake } = await start({ settings: { language: "ko", revoked_import_folders: ["/home/you/notes", "/home/you/old"] } as FakeOptions["settings"] });
    await openSettings();
    const notice = el("[data-testid='revoked-imports']");
    expect(notice.textContent).toContain("/home/you/old");
    expect(notice.textContent).toContain("이제 문서를 가져와도");
    click("[data-testid='revoked-imports'] button.regrant");
    await vi.waitFor(() => expect(document.querySelector("li[data-folder='/home/you/notes']")).not.toBeNull());
    click("[data-testid='revoked-imports'] button.dismiss");
    await vi.waitFor(() => expect(document.querySelector("[data-testid='revoked-imports']")).toBeNull());
    expect(fake.settings.revoked_import_folders).toEqual([]);
  });

  it("offers the folder dialog in the desktop window only", async () => {
    await start({ mode: "desktop" });
    await openSettings();
    await vi.waitFor(() => expect(document.querySelector("button.choose")).not.toBeNull());
    click("button.choose");
    await vi.waitFor(() => expect((el("#folder-path") as HTMLInputElement).value).toBe("/home/you/projects"));
    stop();
    await start();
    await openSettings();
    expect(document.querySelector("button.choose")).toBeNull();
  });
});
