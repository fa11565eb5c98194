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
