// The "discard unsaved changes?" behaviour of a dialog with a form (Settings,
// a conversation's own settings), written once. Closing (Cancel, Escape) with
// nothing changed closes at once; with changes it asks (DiscardChanges.svelte,
// in the footer where Cancel and Save were) and the focus goes to "Keep
// editing", so a second Escape or Enter does not throw the work away; a
// second Escape goes back to the form, the focus on Cancel again.
import { tick } from "svelte";

export class DiscardGuard {
  /** asking: the question is shown in place of the footer's buttons. */
  asking = $state(false);

  /**
   * dialog: the <dialog> (its ".discard .keep" and "footer .cancel" take the focus);
   * unsaved: whether the form differs from what it opened with;
   * shut: closes the dialog for good.
   */
  constructor(
    private readonly dialog: () => HTMLElement | undefined,
    private readonly unsaved: () => boolean,
    private readonly shut: () => void,
  ) {}

  /** close closes the dialog, first asking whether to discard what was changed and not saved. */
  close = async (): Promise<void> => {
    if (!this.unsaved()) {
      this.shut();
      return;
    }
    this.asking = true;
    await tick();
    this.dialog()?.querySelector<HTMLElement>(".discard .keep")?.focus();
  };

  /** keepEditing takes the question away, back to the form. */
  keepEditing = async (): Promise<void> => {
    this.asking = false;
    await tick();
    this.dialog()?.querySelector<HTMLElement>("footer .cancel")?.focus();
  };

  /** discard closes without saving, as the person chose. */
  discard = (): void => {
    this.asking = false;
    this.shut();
  };

  /** oncancel is the dialog's Escape: at once when nothing changed; else it asks, and a second Escape goes back. */
  oncancel = (e: Event): void => {
    if (!this.unsaved()) return;
    e.preventDefault();
    if (this.asking) void this.keepEditing();
    else void this.close();
  };
}
