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
