import type {
  Context,
  Emitter,
  Liquid,
  Parser,
  Tag,
  TagRenderReturn,
  TypeGuards,
  Value,
} from 'liquidjs';

/**
 * The system's locale, for the names of months and days that liquid's `date` filter writes, as
 * an empty list of locales: `Intl.DateTimeFormat([])` uses the default locale. Without a locale
 * liquid resolves the default one when the engine is made, and that first `Intl.DateTimeFormat`
 * loads the date data: 25-35 ms in Node.js and 50-60 ms in a browser at a 4x CPU slowdown, paid
 * by the first `Runtime.init` of a process or page whose plugins have templates, although few
 * templates format a date. Given the list, liquid passes it to `Intl.DateTimeFormat` only when a
 * template formats a date. The cast: liquid types the option as a string; it only hands it on.
 */
const SYSTEM_LOCALE = [] as unknown as string;

/**
 * The tags that read another template from a file: liquid looks the name up under the process's
 * working directory (in a browser, fetches it relative to the page). Values rendered into a
 * prompt come from users and models, so a template must not be able to reach files; each of these
 * tags is replaced by one that refuses the template when it is parsed, naming the tag.
 */
const FILE_TAGS = ['render', 'include', 'layout'] as const;

/**
 * How many characters liquid writes for a value it outputs, as its emitter turns it into text:
 * nothing for `null` and `undefined`, a list's items one after the other, anything else as
 * `String` writes it.
 */
function outputLength(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value === null || value === undefined) return 0;
  if (Array.isArray(value)) {
    let length = 0;
    for (const item of value as unknown[]) length += outputLength(item);
    return length;
  }
  return String(value).length;
}

/**
 * Charges the text an output writes (`{{ value }}`, `{% echo %}`, `{% cycle %}`) to the render's
 * memory limit, and hands the value on unchanged. liquidjs counts only what its ranges and
 * filters make, so without this `{% for i in (1..n) %}{{ long }}{% endfor %}` would write
 * hundreds of millions of characters within the time limit. liquid adds this function as the
 * last filter of every output whose last filter is not `raw`; `raw` is replaced below to charge
 * the same.
 */
function chargeOutput(this: { readonly context: Context }, value: unknown): unknown {
  this.context.memoryLimit.use(outputLength(value));
  return value;
}

/**
 * Hands a tag's writes on to the render's emitter, charging each to the render's memory limit as
 * an output's text is, when `charged` says it is the tag's own (see {@link TABLEROW_MARKUP}).
 */
function chargingEmitter(
  context: Context,
  emitter: Emitter,
  charged: (html: unknown) => boolean = () => true,
): Emitter {
  return {
    write(html: unknown) {
      if (charged(html)) context.memoryLimit.use(outputLength(html));
      emitter.write(html);
    },
    get buffer() {
      return emitter.buffer;
    },
  };
}

/**
 * The markup `{% tablerow %}` writes around each cell and row. What its cells hold is charged by
 * their outputs already, so only these writes are charged again.
 */
const TABLEROW_MARKUP = /^(?:<\/t[dr]>|<t[dr] class="(?:row|col)\d+">)$/;

/** A tag's class, as liquidjs keeps them in `tags` (it does not export the type). */
type TagClass = Liquid['tags'][string];

type TagRender = (this: Tag, context: Context, emitter: Emitter) => TagRenderReturn;

/** A tag class like `base` whose render is `render`, given the base's render to call. */
function replaceRender(base: TagClass, render: (baseRender: TagRender) => TagRender): TagClass {
  const baseRender = (base as unknown as { prototype: { render: TagRender } }).prototype.render;
  const replaced = render(baseRender);
  return class extends (base as unknown as new (...args: ConstructorParameters<TagClass>) => Tag) {
    override render(context: Context, emitter: Emitter): TagRenderReturn {
      return replaced.call(this, context, emitter);
    }
  };
}

/**
 * Makes the tags that write text of their own charge it to the memory limit, as outputs are
 * charged: `increment` and `decrement` write a number, `tablerow` its `<tr>` and `<td>` markup
 * around every cell. Without this, nested loops of them write text the limit never sees.
 */
function chargeTagOutput(made: Liquid): void {
  for (const name of ['increment', 'decrement'] as const) {
    made.registerTag(
      name,
      replaceRender(
        made.tags[name]!,
        (baseRender) =>
          function (this: Tag, context, emitter) {
            return baseRender.call(this, context, chargingEmitter(context, emitter));
          },
      ),
    );
  }
  made.registerTag(
    'tablerow',
    replaceRender(
      made.tags['tablerow']!,
      (baseRender) =>
        function (this: Tag, context, emitter) {
          const markup = (html: unknown) => typeof html === 'string' && TABLEROW_MARKUP.test(html);
          return baseRender.call(this, context, chargingEmitter(context, emitter, markup));
        },
    ),
  );
}

/**
 * Makes the template's own text charge the memory limit each time it is written, as an output's
 * text is: the text between its tags and outputs ({@link chargeOwnText}) and what a `{% raw %}` tag
 * holds. Written once, it is no longer than the template; but a loop writes it once a turn, so
 * without this `{% for i in (1..n) %}` around ten thousand characters of text made a prompt of
 * five hundred million characters for an `n` of fifty thousand, within the time limit.
 */
function chargeRawText(made: Liquid): void {
  made.registerTag(
    'raw',
    replaceRender(
      made.tags['raw']!,
      (baseRender) =>
        function (this: Tag, context, emitter) {
          const text = baseRender.call(this, context, emitter);
          context.memoryLimit.use(outputLength(text));
          return text;
        },
    ),
  );
}

/**
 * Has a parser make the text between a template's tags and outputs charge what it writes, as
 * {@link chargeRawText} says why. liquidjs does not export the class of that text, so the parser's
 * `parseToken` wraps the render of what it makes from a text token. liquid makes a parser for each
 * parse and hands it to the tags that parse their own blocks, so their text is charged too.
 */
function chargeOwnText(parser: Parser, isHTMLToken: typeof TypeGuards.isHTMLToken): Parser {
  const parseToken = parser.parseToken.bind(parser);
  parser.parseToken = (token, remainTokens) => {
    const template = parseToken(token, remainTokens);
    if (isHTMLToken(token)) {
      const render = template.render.bind(template);
      template.render = (context: Context, emitter: Emitter) =>
        render(context, chargingEmitter(context, emitter));
    }
    return template;
  };
  return parser;
}

/**
 * Makes `{% assign %}` as strict as an output: liquidjs evaluates its value as leniently as an
 * `if` when `lenientIf` is on, so `{% assign name = usr %}{{ name }}` rendered an empty string
 * for a misspelt name. A missing value now fails as an undefined variable unless `default` is
 * the first filter, as in `{{ ... }}`. The fields read are liquidjs's assign tag's own (private in
 * its types): the name assigned and the value.
 */
function strictAssign(made: Liquid): void {
  made.registerTag(
    'assign',
    replaceRender(
      made.tags['assign']!,
      (baseRender) =>
        function* (
          this: Tag,
          context: Context,
          emitter: Emitter,
        ): Generator<unknown, void, unknown> {
          const { key, value } = this as unknown as { key?: unknown; value?: unknown };
          // A liquidjs whose assign keeps these fields under other names renders as it would
          // have, leniently, rather than failing every template that assigns.
          if (
            typeof key !== 'string' ||
            typeof (value as Value | undefined)?.value !== 'function'
          ) {
            yield baseRender.call(this, context, emitter);
            return;
          }
          context.bottom()[key] = yield (value as Value).value(context, false);
        },
    ),
  );
}

/**
 * A render's context in which a list's `size` is its length, even when the list has a `size`
 * property of its own, as its `first` and `last` are its items whatever properties it has.
 * liquidjs reads an own `size` first, for any value.
 */
function listSizeContext(Base: typeof Context): typeof Context {
  return class extends Base {
    override readProperty(object: Parameters<Context['readProperty']>[0], key: unknown): unknown {
      if (key === 'size' && Array.isArray(object)) return object.length;
      return super.readProperty(object, key as Parameters<Context['readProperty']>[1]);
    }
  };
}

let engine: Liquid | undefined;
let RenderContext: typeof Context | undefined;
let loading: Promise<Liquid> | undefined;

/** How liquidjs is imported; see {@link setLiquidImporter}. */
type LiquidImporter = () => Promise<{
  Liquid: typeof Liquid;
  Context: typeof Context;
  Parser: typeof Parser;
  TypeGuards: typeof TypeGuards;
}>;

const importLiquidjs: LiquidImporter = () => import('liquidjs');
let importLiquid: LiquidImporter = importLiquidjs;

/**
 * Replaces how liquidjs is imported, until called again without an importer, which restores the
 * real import. For tests of a failed import; it has no effect once the engine is made.
 *
 * @internal
 */
export function setLiquidImporter(importer?: LiquidImporter): void {
  importLiquid = importer ?? importLiquidjs;
}

/**
 * Longest one liquid render may take, in milliseconds. A template renders values a user may have
 * chosen (a message, a tool's answer): `{% for i in (1..n) %}` with a huge `n` would otherwise
 * hold the process, whose renders are synchronous, for as long as it runs.
 */
export const LIQUID_RENDER_LIMIT_MS = 1_000;

/**
 * Most that one liquid render may allocate, in liquidjs's count (characters of the strings and
 * items of the lists its ranges and filters make) plus the characters it writes (its outputs, its
 * tags' text and its own text, each time it is written), so that no range, filter, output or loop
 * can exhaust the memory. It also bounds the time limit's overshoot:
 * liquidjs makes a range's whole list before the loop's first turn, where the time is next
 * checked, so the largest range allowed must be quick to make. Ten million characters is more
 * text than any model's context holds.
 */
export const LIQUID_MEMORY_LIMIT = 10_000_000;

/**
 * The liquid engine of every registry, once {@link loadLiquid} has made it. All registries use
 * the same options, and liquid keeps nothing between parses or renders (no template cache is
 * configured), so one engine serves them all.
 */
export function loadedLiquid(): Liquid | undefined {
  return engine;
}

/**
 * Loads liquidjs and makes the shared engine, once. The module is imported here, on the first
 * liquid template, and nowhere else: a runtime whose templates are all functions never loads
 * it, which spares a page its download and evaluation. A failed import is tried again by the
 * next call.
 *
 * The engine reads no files: `render`, `include` and `layout` refuse the template when it is
 * parsed, and its file system is an empty set of templates, so that no other way reaches a file.
 */
export function loadLiquid(): Promise<Liquid> {
  loading ??= importLiquid().then(
    ({ Liquid: LiquidEngine, Context: BaseContext, Parser: BaseParser, TypeGuards: guards }) => {
      // liquid parses with a parser of its own for each template; this one charges their text.
      const ChargingLiquid = class extends LiquidEngine {
        override parse(html: string, filepath?: string): ReturnType<Liquid['parse']> {
          return chargeOwnText(new BaseParser(this), guards.isHTMLToken).parse(html, filepath);
        }
      };
      const made = new ChargingLiquid({
        strictVariables: true,
        strictFilters: true,
        lenientIf: true,
        ownPropertyOnly: true,
        locale: SYSTEM_LOCALE,
        templates: {},
        renderLimit: LIQUID_RENDER_LIMIT_MS,
        memoryLimit: LIQUID_MEMORY_LIMIT,
        // The cast: liquid types the option as returning text; its emitter writes any value.
        outputEscape: chargeOutput as (value: unknown) => string,
      });
      made.registerFilter('raw', { raw: true, handler: chargeOutput });
      chargeTagOutput(made);
      chargeRawText(made);
      strictAssign(made);
      RenderContext = listSizeContext(BaseContext);
      for (const tag of FILE_TAGS) {
        made.registerTag(tag, {
          parse() {
            throw new Error(
              `the {% ${tag} %} tag is not supported: templates cannot read files; register each template and pass what one renders to another as a variable`,
            );
          },
          render() {
            return '';
          },
        });
      }
      return (engine = made);
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * Renders a parsed template with the engine, synchronously, in a context where a list's `size` is
 * its length. Each render gets its own context, and so its own time and memory limits.
 */
export function renderLiquidSync(
  made: Liquid,
  template: ReturnType<Liquid['parse']>,
  variables: Record<string, unknown>,
): unknown {
  if (!RenderContext) throw new Error('the liquid engine is not loaded');
  // A copy, getters kept as getters: `increment` and `decrement` keep their counters in the
  // variables' object, which would change the caller's object, carry a counter on to the next
  // render of the same variables, and fail on a frozen one (so the copy's values are writable). Inherited properties need no copy:
  // with `ownPropertyOnly`, liquid reads none.
  const descriptors = Object.getOwnPropertyDescriptors(variables);
  for (const descriptor of Object.values(descriptors)) {
    descriptor.configurable = true;
    if ('value' in descriptor) descriptor.writable = true;
  }
  const own = Object.defineProperties({}, descriptors);
  const context = new RenderContext(own, made.options, { sync: true }, { liquid: made });
  return made.renderSync(template, context);
}
