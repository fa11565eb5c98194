// The folder list in Settings (issue 22.1): folders read_file may read are
// granted here explicitly, listed with what they allow, changed and
// revoked at once; grants an older version made on import are explained.
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import App from "../App.svelte";
import { makeServices } from "../services";
import { FakeBackend, type FakeOptions } from "../testing/fakeBackend";
import { setLang } from "../i18n/i18n.svelte";

let app: ReturnType<typeof mount> | null = null;

afterEach(() => {
  if (app) unmount(app);
  app = null;
  document.body.innerHTML = "";
  delete document.body.dataset.ready;
  setLang("en");
});

async function openSettings(opts: FakeOptions = {}) {
  const fake = new FakeBackend({ settings: { language: "en" }, ...opts });
  const target = document.createElement("div");
  document.body.appendChild(target);
  app = mount(App, { target, props: { services: makeServices(fake) } });
  await vi.waitFor(() => expect(document.body.dataset.ready).toBe("1"));
  settingsButton().click();
  flushSync();
  await vi.waitFor(() => expect(document.querySelector("dialog[open] [data-testid='folder-grants']")).not.toBeNull());
  return fake;
}

/** settingsButton is the topbar's last button, in whichever language. */
function settingsButton(): HTMLButtonElement {
  const all = document.querySelectorAll<HTMLButtonElement>(".topbar .tools button");
  return all[all.length - 1]!;
}

function el<T extends HTMLElement>(sel: string): T {
  const e = document.querySelector<T>(sel);
  if (!e) throw new Error(`no ${sel}`);
  return e;
}

function fill(sel: string, value: string) {
  const input = el<HTMLInputElement>(sel);
  input.value = value;
  input.dispatchEvent(new Event("input", { bubbles: true }));
  flushSync();
}

describe("folders in Settings", () => {
  it("grants, shows what a grant allows, changes it and revokes it", async () => {
    const fake = await openSettings();
    expect(el("[data-testid='folder-grants']").textContent).toContain("No folder yet");
    fill("#folder-path", "/home/you/notes");
    el<HTMLButtonElement>("button.grant").click();
    await vi.waitFor(() => expect(document.querySelector("li[data-folder='/home/you/notes']")).not.toBeNull());
    const row = el("li[data-folder='/home/you/notes']");
    expect(row.textContent).toContain("Files");
    expect(el<HTMLInputElement>("li[data-folder='/home/you/notes'] .hidden-toggle").checked).toBe(false);
    expect(el<HTMLInputElement>("li[data-folder='/home/you/notes'] .secrets-toggle").checked).toBe(false);
    expect(el<HTMLInputElement>("#folder-path").value).toBe("");

    el<HTMLInputElement>("li[data-folder='/home/you/notes'] .hidden-toggle").click();
    await vi.waitFor(() => expect(fake.settings.folder_grants[0]?.allow_hidden).toBe(true));
    expect(fake.settings.folder_grants[0]?.allow_secrets).toBe(false);

    // Saving the settings form afterwards keeps the grant.
    el<HTMLButtonElement>("dialog[open] button[type=submit]").click();
    await vi.waitFor(() => expect(fake.calls.some((c) => c.method === "Save")).toBe(true));
    expect(fake.settings.folder_grants).toHaveLength(1);

    await vi.waitFor(() => expect(document.querySelector("dialog[open]")).toBeNull());
    settingsButton().click();
    flushSync();
    await vi.waitFor(() => expect(document.querySelector("dialog[open] li[data-folder='/home/you/notes'] button.revoke")).not.toBeNull());
    el<HTMLButtonElement>("li[data-folder='/home/you/notes'] button.revoke").click();
    await vi.waitFor(() => expect(document.querySelector("li[data-folder='/home/you/notes']")).toBeNull());
    expect(fake.settings.folder_grants).toHaveLength(0);
  });

  it("says why a folder cannot be granted", async () => {
    await openSettings();
    fill("#folder-path", "/no/such/folder");
    el<HTMLButtonElement>("button.grant").click();
    await vi.waitFor(() => expect(document.querySelector("[data-testid='folder-grants'] [role='alert']")?.textContent).toContain("There is no such folder"));
  });

  it("lists the folders imports used to make readable, to grant again or dismiss", async () => {
    const fake = await openSettings({ settings: { language: "ko", revoked_import_folders: ["/home/you/notes", "/home/you/old"] } });
    const notice = el("[data-testid='revoked-imports']");
    expect(notice.textContent).toContain("/home/you/old");
    expect(notice.textContent).toContain("이제 문서를 가져와도");
    el<HTMLButtonElement>("[data-testid='revoked-imports'] button.regrant").click();
    await vi.waitFor(() => expect(document.querySelector("li[data-folder='/home/you/notes']")).not.toBeNull());
    el<HTMLButtonElement>("[data-testid='revoked-imports'] button.dismiss").click();
    await vi.waitFor(() => expect(document.querySelector("[data-testid='revoked-imports']")).toBeNull());
    expect(fake.settings.revoked_import_folders).toEqual([]);
  });

  it("offers the folder dialog in the desktop window only", async () => {
    await openSettings({ mode: "desktop" });
    await vi.waitFor(() => expect(document.querySelector("button.choose")).not.toBeNull());
    el<HTMLButtonElement>("button.choose").click();
    await vi.waitFor(() => expect(el<HTMLInputElement>("#folder-path").value).toBe("/home/you/projects"));
    unmount(app!);
    app = null;
    document.body.innerHTML = "";
    delete document.body.dataset.ready;
    await openSettings();
    expect(document.querySelector("button.choose")).toBeNull();
  });
});
