// Helpers for component tests that drive the whole App on the FakeBackend
// the way a person would.
import { expect, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import App from "../App.svelte";
import { makeServices } from "../services";
import { FakeBackend, type FakeOptions } from "./fakeBackend";
import { setLang } from "../i18n/i18n.svelte";

let app: ReturnType<typeof mount> | null = null;

export async function start(opts: FakeOptions = {}, fake = new FakeBackend({ settings: { language: "en" }, ...opts })) {
  const target = document.createElement("div");
  document.body.appendChild(target);
  app = mount(App, { target, props: { services: makeServices(fake) } });
  await vi.waitFor(() => expect(document.body.dataset.ready).toBe("1"));
  return { fake, target };
}

export function stop(): void {
  if (app) unmount(app);
  app = null;
  document.body.innerHTML = "";
  delete document.body.dataset.ready;
  setLang("en");
}

export function cleanup(): void {
  stop();
  window.history.replaceState(null, "", "/");
}

export function $(sel: string, root: ParentNode = document): HTMLElement {
  const el = root.querySelector<HTMLElement>(sel);
  if (!el) throw new Error(`no ${sel}`);
  return el;
}

export function $$(sel: string): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>(sel)];
}

export function fill(el: HTMLElement | string, text: string): void {
  const input = (typeof el === "string" ? $(el) : el) as HTMLInputElement | HTMLTextAreaElement;
  input.value = text;
  input.dispatchEvent(new Event("input", { bubbles: true }));
  flushSync();
}

export function key(el: Element | Window, k: string, extra: KeyboardEventInit = {}): void {
  el.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true, ...extra }));
  flushSync();
}

export function click(el: HTMLElement | string): void {
  (typeof el === "string" ? $(el) : el).click();
  flushSync();
}

/** toggle ticks or clears a checkbox and tells the page, as a click would. */
export function toggle(el: HTMLElement | string, on: boolean): void {
  const box = (typeof el === "string" ? $(el) : el) as HTMLInputElement;
  box.checked = on;
  box.dispatchEvent(new Event("change", { bubbles: true }));
  flushSync();
}

/** The rows of files being attached under the message box, the first of them, and its stage line. */
export const attachRows = () => $$("[data-testid='attachments'] .pending li");
export const attachRow = () => $("[data-testid='attachments'] .pending li");
export const attachStage = () => attachRow().querySelector<HTMLElement>(".stage")!;
/** attachChip is the chip of the conversation's file called name, if it has one. */
export const attachChip = (name: string) => $$("[data-testid='attachments'] .files li").find((li) => li.textContent!.includes(name));

/** attach picks files in the message box's file picker, as a person does. */
export function attach(files: File[]): void {
  const input = $("[data-testid='attach-input']") as HTMLInputElement;
  Object.defineProperty(input, "files", { value: files, configurable: true });
  input.dispatchEvent(new Event("change", { bubbles: true }));
  flushSync();
}

/**
 * openKnowledge shows the Knowledge screen (the sidebar's first view) and
 * waits for its heading, so a test can pick or search at once.
 */
export async function openKnowledge(): Promise<void> {
  click($$(".views button")[0]!);
  await vi.waitFor(() => expect(document.querySelector("#kb-title")).not.toBeNull(), { timeout: 5000 });
}

/**
 * removeOnKnowledgeScreen removes document id on the Knowledge screen, as a
 * person does (Remove, then its confirmation), and goes back to the first
 * conversation in the sidebar.
 */
export async function removeOnKnowledgeScreen(id: string): Promise<void> {
  click($$(".views button")[0]!);
  await vi.waitFor(() => expect(document.querySelector(`tr[data-doc='${id}'] button.remove`)).not.toBeNull(), { timeout: 5000 });
  click(`tr[data-doc='${id}'] button.remove`);
  click(`tr[data-doc='${id}'] button.confirm-remove`);
  await vi.waitFor(() => expect(document.querySelector(`tr[data-doc='${id}']`)).toBeNull(), { timeout: 5000 });
  click(".sidebar li button.open");
}

/** pickDocuments picks files in the Knowledge screen's file picker, as a person does. */
export function pickDocuments(files: File[]): void {
  const input = $("#kb-file-input") as HTMLInputElement;
  Object.defineProperty(input, "files", { value: files, configurable: true });
  input.dispatchEvent(new Event("change", { bubbles: true }));
  flushSync();
}

/** searchKnowledge searches the Knowledge screen's documents from its Search tab, as a person does. */
export function searchKnowledge(query: string): void {
  click("#kb-tab-search");
  fill("#kb-search", query);
  $(".search").dispatchEvent(new Event("submit", { cancelable: true }));
  flushSync();
}

/**
 * openSettings presses the topbar's Settings button (labelled in English or
 * Korean) and waits for the dialog's fields, which show once the settings
 * are read.
 */
export async function openSettings(): Promise<void> {
  click('.topbar button[aria-label="Settings"], .topbar button[aria-label="설정"]');
  await vi.waitFor(() => expect(document.querySelector("dialog[open] .fields")).not.toBeNull(), { timeout: 5000 });
}

export async function send(text: string): Promise<void> {
  fill("#composer-input", text);
  key($("#composer-input"), "Enter");
}

/**
 * fakeReaderLayout gives the document reader the layout happy-dom has not got: a view 100 px high over 2,000 px of
 * document, its section label stuck at the view's top, 30 px high, and the elements `place` puts somewhere at
 * [top in the document, height] (null: nowhere, 0 px at the top), minus how far the view is scrolled.
 */
export function fakeReaderLayout(place: (el: Element) => [number, number] | null): void {
  const rect = (top: number, height: number) => ({ top, bottom: top + height, height, left: 0, right: 0, width: 0, x: 0, y: top, toJSON: () => ({}) }) as DOMRect;
  vi.spyOn(Element.prototype, "getBoundingClientRect").mockImplementation(function (this: Element) {
    if (this.matches(".place")) return rect(0, 30);
    const at = place(this);
    const scrolled = this.closest<HTMLElement>("[data-testid=reader-body]")?.scrollTop ?? 0;
    return at ? rect(at[0] - scrolled, at[1]) : rect(0, 0);
  });
  const reader = (el: Element) => el.getAttribute("data-testid") === "reader-body";
  vi.spyOn(HTMLElement.prototype, "clientHeight", "get").mockImplementation(function (this: Element) {
    return reader(this) ? 100 : 0;
  });
  vi.spyOn(Element.prototype, "scrollHeight", "get").mockImplementation(function (this: Element) {
    return reader(this) ? 2000 : 0;
  });
}
