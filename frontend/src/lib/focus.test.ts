import { afterEach, describe, expect, it } from "vitest";
import { keepTabInside } from "./focus";

// jsdom lays nothing out, so offsetParent is null everywhere: give every
// element one, except those marked hidden, as a browser would.
Object.defineProperty(HTMLElement.prototype, "offsetParent", {
  configurable: true,
  get(this: HTMLElement) {
    return this.hidden ? null : document.body;
  },
});

function dialog(): HTMLElement {
  const d = document.createElement("div");
  d.innerHTML = `<button id="a">A</button><input id="b"><button id="off" disabled>x</button><button id="gone" hidden>y</button><button id="c">C</button>`;
  document.body.append(d);
  return d;
}

function tab(d: HTMLElement, shiftKey = false): KeyboardEvent {
  const e = new KeyboardEvent("keydown", { key: "Tab", shiftKey, cancelable: true });
  keepTabInside(e, d);
  return e;
}

describe("keepTabInside", () => {
  afterEach(() => document.body.replaceChildren());

  it("goes from the last element back to the first", () => {
    const d = dialog();
    d.querySelector<HTMLElement>("#c")!.focus();
    const e = tab(d);
    expect(e.defaultPrevented).toBe(true);
    expect(document.activeElement?.id).toBe("a");
  });

  it("goes from the first element back to the last with Shift, past disabled and hidden ones", () => {
    const d = dialog();
    d.querySelector<HTMLElement>("#a")!.focus();
    tab(d, true);
    expect(document.activeElement?.id).toBe("c");
  });

  it("leaves Tab alone in the middle, and other keys everywhere", () => {
    const d = dialog();
    d.querySelector<HTMLElement>("#b")!.focus();
    expect(tab(d).defaultPrevented).toBe(false);
    d.querySelector<HTMLElement>("#c")!.focus();
    const e = new KeyboardEvent("keydown", { key: "Enter", cancelable: true });
    keepTabInside(e, d);
    expect(e.defaultPrevented).toBe(false);
  });
});
