/** Where focus goes when a form's state changes (both apps). */

/**
 * Focus on the first input a failed submit (or a decline that names a field) marked, once it is
 * rendered. A field that already has focus is left and entered again, so that its error, part of
 * its description, is read again.
 */
export function focusFirstInvalid(within: HTMLElement | null): void {
  setTimeout(() => {
    const field = within?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!field) return;
    if (document.activeElement === field) field.blur();
    field.focus();
  }, 0);
}

/** Focus on a control that appears on the next render, when the one that had it went away. */
export function focusSoon(selector: string): void {
  setTimeout(() => document.querySelector<HTMLElement>(selector)?.focus(), 0);
}
