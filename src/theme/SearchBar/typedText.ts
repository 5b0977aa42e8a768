/**
 * Carrying what the reader typed into the placeholder search box over to the plugin's box.
 *
 * The plugin's box is a React-controlled input, so the text is set the way a key press would
 * set it (the native value setter, then an input event), which updates the plugin's state too.
 * On mount the plugin clears its box from a timer (it sets the box to the terms of a search
 * highlight, none here); the text is set again after that timer, with anything typed meanwhile.
 */

export interface TypedText {
  value: string;
  focused: boolean;
  /** Caret or selection [start, end]; null before the reader has typed. */
  selection: [number, number] | null;
}

/** What the reader has done in `input`: its text, caret and whether it has the focus. */
export function readTypedText(input: HTMLInputElement): TypedText {
  return {
    value: input.value,
    focused: document.activeElement === input,
    selection: [
      input.selectionStart ?? input.value.length,
      input.selectionEnd ?? input.value.length,
    ],
  };
}

const nativeValueSetter = (): ((this: HTMLInputElement, value: string) => void) | undefined =>
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;

function typeInto(input: HTMLInputElement, value: string): void {
  nativeValueSetter()?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/** How long after the swap the text is guarded against the plugin's resets. */
const GUARD_MS = 5000;
const GUARD_POLL_MS = 50;

/**
 * Moves `typed` into `input` now, and keeps it there while the plugin settles. Returns a
 * cleanup for React's effect.
 *
 * The plugin empties the box without an input event, from a timer after mount and again when
 * its state catches up while its index loads. For a few seconds, while the box has focus
 * (choosing a result blurs it), the text the reader typed is put back whenever it changes
 * without the reader typing: just before a key press applies (beforeinput), so the key lands
 * after it, and otherwise on the next poll.
 */
export function moveTypedText(typed: TypedText, input: HTMLInputElement): () => void {
  let intended = typed.value;
  const restoreBeforeKey = () => {
    if (input.value !== intended) {
      // Not an input event: React sees the key press that follows as the change.
      nativeValueSetter()?.call(input, intended);
      input.setSelectionRange(intended.length, intended.length);
    }
  };
  const track = () => {
    intended = input.value;
  };
  if (typed.focused) {
    input.focus();
  }
  if (intended !== '') {
    typeInto(input, intended);
    if (typed.selection) {
      input.setSelectionRange(typed.selection[0], typed.selection[1]);
    }
  }
  const poll = window.setInterval(() => {
    // Choosing a result blurs the box before the plugin clears it; leave that alone.
    if (document.activeElement === input && input.value !== intended) {
      typeInto(input, intended);
    }
  }, GUARD_POLL_MS);
  const stopWatching = () => {
    window.clearInterval(poll);
    window.clearTimeout(deadline);
    input.removeEventListener('beforeinput', restoreBeforeKey);
    input.removeEventListener('input', track);
  };
  const deadline = window.setTimeout(stopWatching, GUARD_MS);
  input.addEventListener('beforeinput', restoreBeforeKey);
  input.addEventListener('input', track);
  return stopWatching;
}
