/**
 * Stands in for mark.js in the search plugin's client, with the two methods it calls. mark.js
 * (about 5 KB gzipped) is loaded only once there is a term to highlight, that is on a page
 * opened from a search result; before that, clearing highlights has nothing to clear.
 */
type MarkOptions = Record<string, unknown>;

interface Marker {
  mark(keywords: string | string[], options?: MarkOptions): void;
  unmark(options?: MarkOptions): void;
}

type MarkerConstructor = new (context: Element | Element[] | string) => Marker;

let hasMarked = false;
/** Keeps calls in the order they were made while mark.js loads. */
let queue: Promise<void> = Promise.resolve();

function withMarkJs(action: (MarkJs: MarkerConstructor) => void): void {
  queue = queue
    .then(() => import('mark.js/dist/mark.es6.js'))
    .then((module) => action(module.default as MarkerConstructor))
    .catch((error: unknown) => console.error('Search term highlighting failed:', error));
}

export default class LazyMark implements Marker {
  constructor(private readonly context: Element | Element[] | string) {}

  mark(keywords: string | string[], options?: MarkOptions): void {
    hasMarked = true;
    withMarkJs((MarkJs) => new MarkJs(this.context).mark(keywords, options));
  }

  unmark(options?: MarkOptions): void {
    if (!hasMarked) {
      return;
    }
    withMarkJs((MarkJs) => new MarkJs(this.context).unmark(options));
  }
}
