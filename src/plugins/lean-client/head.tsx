/**
 * The browser's stand-in for react-helmet-async, which Docusaurus's `<Head>` wraps. The server
 * render keeps the real library: it builds each page's head, marking the tags it manages with
 * `data-rh`. In the browser, only the updates are needed, and the library with its equality and
 * invariant helpers is about 5 KB gzipped of the entry bundle every page loads.
 *
 * The rules are the library's, which the theme relies on (a page's `<Head>` overrides the site's
 * defaults): every mounted `<Head>` counts, in the order they first rendered (outer before inner,
 * earlier before later). The last title wins; `<html>` and `<body>` attributes merge, later ones
 * winning; a meta tag replaces the earlier ones with the same name, property, charset,
 * http-equiv or itemprop, and a link the earlier ones with the same href (a canonical link, the
 * earlier canonical). Tags within one `<Head>` never replace one another. After each commit,
 * the head's `data-rh` tags are brought in line: tags that already match stay, so hydrating the
 * server's page changes nothing. tests/e2e/head.spec.ts compares the result with the server's
 * head after navigations.
 */
import React, {
  Children,
  isValidElement,
  useLayoutEffect,
  useState,
  type ReactElement,
  type ReactNode,
} from 'react';

type TagProps = Record<string, unknown> & { children?: unknown };

interface Instance {
  tags: ReactElement<TagProps>[];
  mounted: boolean;
}

/** In the order they first rendered, as the library keeps them. */
const instances: Instance[] = [];
let applyScheduled = false;

/** React prop names whose HTML attribute names differ by more than case. */
const ATTRIBUTE_NAMES: Record<string, string> = {
  className: 'class',
  httpEquiv: 'http-equiv',
  acceptCharset: 'accept-charset',
};

/** Attributes that identify a meta tag, in the order the library looks for them. */
const META_KEYS = ['name', 'charSet', 'httpEquiv', 'property', 'itemProp'];

/** A tag's attributes as the library writes them: every value as a string ("false" too). */
function attributesOf(props: TagProps): [string, string][] {
  return Object.entries(props)
    .filter(
      ([name, value]) => name !== 'children' && name !== 'dangerouslySetInnerHTML' && value != null,
    )
    .map(([name, value]) => [ATTRIBUTE_NAMES[name] ?? name.toLowerCase(), String(value)]);
}

function textOf(props: TagProps): string {
  const inner = props.dangerouslySetInnerHTML as { __html?: string } | undefined;
  return inner?.__html ?? Children.toArray(props.children as ReactNode).join('');
}

/** What a tag replaces in earlier `<Head>`s, or undefined when it replaces nothing. */
function replacementKey({ type, props }: ReactElement<TagProps>): string | undefined {
  if (type === 'meta') {
    const key = META_KEYS.find((name) => props[name] != null);
    return key && `meta ${key}=${String(props[key])}`;
  }
  if (type === 'link') {
    return String(props.rel).toLowerCase() === 'canonical'
      ? 'link canonical'
      : `link ${String(props.href)}`;
  }
  return type === 'script' || type === 'style' ? `${type} ${textOf(props)}` : undefined;
}

function createTag({ type, props }: ReactElement<TagProps>): Element {
  const element = document.createElement(type as string);
  for (const [name, value] of attributesOf(props)) {
    element.setAttribute(name, value);
  }
  element.textContent = textOf(props);
  element.setAttribute('data-rh', 'true');
  return element;
}

/** The `data-rh` attributes of <html> and <body> name the attributes the head last set. */
function setAttributes(element: HTMLElement, attributes: Map<string, string>): void {
  const previous = element.getAttribute('data-rh')?.split(',') ?? [];
  for (const name of previous) {
    if (!attributes.has(name)) {
      element.removeAttribute(name);
    }
  }
  for (const [name, value] of attributes) {
    if (element.getAttribute(name) !== value) {
      element.setAttribute(name, value);
    }
  }
  if (attributes.size > 0) {
    element.setAttribute('data-rh', [...attributes.keys()].join(','));
  } else {
    element.removeAttribute('data-rh');
  }
}

function apply(): void {
  applyScheduled = false;
  let title: string | undefined;
  const attributes = { html: new Map<string, string>(), body: new Map<string, string>() };
  const claimed = new Set<string>();
  const wanted: Element[] = [];
  // From the last tag of the last <Head> back: the first title and attribute values found win,
  // and a tag is dropped if a later <Head> claimed its key.
  for (const instance of instances.filter((candidate) => candidate.mounted).reverse()) {
    const keys: string[] = [];
    for (const tag of [...instance.tags].reverse()) {
      if (tag.type === 'title') {
        title ??= textOf(tag.props);
      } else if (tag.type === 'html' || tag.type === 'body') {
        const target = attributes[tag.type];
        for (const [name, value] of attributesOf(tag.props)) {
          if (!target.has(name)) {
            target.set(name, value);
          }
        }
      } else {
        const key = replacementKey(tag);
        if (key === undefined || !claimed.has(key)) {
          wanted.unshift(createTag(tag));
          keys.push(key ?? '');
        }
      }
    }
    keys.forEach((key) => claimed.add(key));
  }
  if (title !== undefined && document.title !== title) {
    document.title = title;
  }
  setAttributes(document.documentElement, attributes.html);
  setAttributes(document.body, attributes.body);
  for (const existing of Array.from(document.head.querySelectorAll('[data-rh]:not(title)'))) {
    const same = wanted.findIndex((tag) => tag.isEqualNode(existing));
    if (same === -1) {
      existing.remove();
    } else {
      wanted.splice(same, 1);
    }
  }
  document.head.append(...wanted);
}

function scheduleApply(): void {
  if (!applyScheduled) {
    applyScheduled = true;
    requestAnimationFrame(apply);
  }
}

/**
 * Registered when it first renders, which is what orders the instances (effects run inner
 * first). A render React throws away leaves an instance that never mounts, and never counts.
 */
function register(): Instance {
  const instance: Instance = { tags: [], mounted: false };
  instances.push(instance);
  return instance;
}

function mount(instance: Instance): () => void {
  instance.mounted = true;
  return () => {
    instances.splice(instances.indexOf(instance), 1);
    scheduleApply();
  };
}

function update(instance: Instance, tags: ReactElement<TagProps>[]): void {
  instance.tags = tags;
  scheduleApply();
}

export function Helmet({ children }: { children?: ReactNode }): null {
  const [instance] = useState(register);
  const tags = Children.toArray(children).filter(
    (child): child is ReactElement<TagProps> =>
      isValidElement(child) && typeof child.type === 'string',
  );
  useLayoutEffect(() => mount(instance), [instance]);
  useLayoutEffect(() => update(instance, tags));
  return null;
}

/** The library's provider holds its instances; here they are module state, so it only passes through. */
export function HelmetProvider({ children }: { children?: ReactNode }): ReactNode {
  return <>{children}</>;
}
