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

const nativeValueSetter = (): ((this: HTMLInputElement, value: string) => void) | undefined =>
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;

function typeInto(input: HTMLInputElement, value: string): void {
  nativeValueSetter()?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * Moves `typed` into `input` now and once more after the plugin's reset. Returns a cleanup
 * for React's effect.
 */
export function moveTypedText(typed: TypedText, input: HTMLInputElement): () => void {
  let latest = typed.value;
  const track = () => {
    latest = input.value;
  };
  if (typed.focused) {
    input.focus();
  }
  if (latest !== '') {
    typeInto(input, latest);
    if (typed.selection) {
      input.setSelectionRange(typed.selection[0], typed.selection[1]);
    }
  }
  input.addEventListener('input', track);
  // Two timer turns: the plugin schedules its reset from an effect that runs after this one.
  let timer = window.setTimeout(() => {
    timer = window.setTimeout(() => {
      input.removeEventListener('input', track);
      if (latest !== '' && input.value !== latest) {
        typeInto(input, latest);
      }
    }, 0);
  }, 0);
  return () => {
    window.clearTimeout(timer);
    input.removeEventListener('input', track);
  };
}
