/**
 * keepTabInside keeps Tab and Shift+Tab cycling through the focusable
 * elements of a modal dialog. showModal makes the page behind inert, but Tab
 * can still leave the dialog for the browser's own chrome, and a person
 * using the keyboard would lose their place.
 */
export function keepTabInside(e: KeyboardEvent, dialog: HTMLElement): void {
  if (e.key !== "Tab") return;
  const items = [...dialog.querySelectorAll<HTMLElement>("a[href], button, input, textarea, select, [tabindex]:not([tabindex='-1'])")].filter(
    (el) => !(el as HTMLButtonElement).disabled && el.offsetParent !== null,
  );
  if (!items.length) return;
  const first = items[0]!;
  const last = items.at(-1)!;
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}

/**
 * focusBack remembers where the focus is as a dialog opens (the message box,
 * usually, where Enter sent the task) and returns a function that gives it
 * back once the dialog is gone. A decision removes the dialog from the page,
 * and a removed dialog leaves the focus on the page's body: the next words
 * typed went nowhere. The focus is given back only when it was lost that
 * way, to the element it came from or, when that is gone too, to the
 * message box.
 */
export function focusBack(): () => void {
  const from = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  return () => {
    setTimeout(() => {
      const now = document.activeElement;
      if (now && now !== document.body && now.isConnected) return;
      const to = from?.isConnected && from !== document.body ? from : document.getElementById("composer-input");
      to?.focus();
    });
  };
}
