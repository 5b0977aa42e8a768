import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { defineTemplate, PromptRegistry, type PromptTemplate } from '@weft/core';
import { Liquid } from 'liquidjs';
import ts from 'typescript';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  LIQUID_MEMORY_LIMIT,
  LIQUID_RENDER_LIMIT_MS,
  loadedLiquid,
  loadLiquid,
} from '../src/prompts/liquid-engine.js';
import { errorOf } from './fixtures.js';

const directories: string[] = [];
afterEach(async () => {
  await Promise.all(
    directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })),
  );
});

async function tempDir(files: Record<string, string>): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'weft-prompts-'));
  directories.push(directory);
  for (const [name, content] of Object.entries(files))
    await writeFile(join(directory, name), content);
  return directory;
}

describe('PromptRegistry', () => {
  it('registers and renders a template under its namespace', async () => {
    const prompts = new PromptRegistry();
    prompts.register('greeter', 'hello', 'Hello {{ name }}!');
    expect(prompts.has('greeter/hello')).toBe(true);
    expect(await prompts.render('greeter/hello', { name: 'Ada' })).toBe('Hello Ada!');
    const template = prompts.get('greeter/hello');
    expect(template.templateName).toBe('greeter/hello');
    expect(await template({ name: 'Grace' })).toBe('Hello Grace!');
  });

  it('keeps namespaces apart [claim:liq-namespaces]', async () => {
    const prompts = new PromptRegistry();
    prompts.register('weather', 'reply', 'Weather: {{ text }}');
    prompts.register('chat', 'reply', 'Chat: {{ text }}');
    expect(await prompts.render('weather/reply', { text: 'sun' })).toBe('Weather: sun');
    expect(await prompts.render('chat/reply', { text: 'hi' })).toBe('Chat: hi');
    expect(prompts.list()).toEqual(['chat/reply', 'weather/reply']);
  });

  it('rejects a second template with the same full name [claim:liq-register] [claim:liq-core-fixed] [claim:tsdoc-prompts-register]', () => {
    const prompts = new PromptRegistry();
    prompts.register('chat', 'reply', 'a');
    expect(() => prompts.register('chat', 'reply', 'b')).toThrow(
      expect.objectContaining({
        code: 'WEFT_DUPLICATE',
        message: expect.stringContaining('template "chat/reply" is already registered'),
      }),
    );
  });

  it('rejects an invalid namespace or name, naming it [claim:liq-register] [claim:liq-name-rule]', () => {
    const prompts = new PromptRegistry();
    expect(() => prompts.register('bad space', 'x', 'a')).toThrow(
      expect.objectContaining({
        code: 'WEFT_TEMPLATE_INVALID',
        message: expect.stringContaining('invalid template namespace "bad space"'),
      }),
    );
    expect(() => prompts.register('ok', 'a/b', 'a')).toThrow('invalid template name "a/b"');
    // Letters, digits, '-', '_' and '.', but the first character is a letter or a digit.
    expect(() => prompts.register('ok', '-draft', 'a')).toThrow('invalid template name "-draft"');
    expect(() => prompts.register('.ok', 'draft', 'a')).toThrow('invalid template namespace ".ok"');
    prompts.register('ok', 'v1.draft_2-b', 'a');
    expect(prompts.has('ok/v1.draft_2-b')).toBe(true);
    // ASCII letters only: an accented one is refused, as the page's example says.
    expect(() => prompts.register('notes', 'résumé', 'a')).toThrow(
      'invalid template name "résumé"',
    );
    prompts.register('notes', 'v2.summary_short', 'a');
    expect(prompts.has('notes/v2.summary_short')).toBe(true);
    // Upper-case ASCII letters are letters too; other ASCII punctuation is refused like '/'.
    prompts.register('Notes', 'V2.Summary', 'a');
    expect(prompts.has('Notes/V2.Summary')).toBe(true);
    for (const name of ['a:b', 'a+b', 'a~b', 'a@b']) {
      expect(() => prompts.register('notes', name, 'a')).toThrow(`invalid template name "${name}"`);
    }
  });

  it('looks templates up by their full name only: a bare name is not found, and the message lists the full names [claim:errors-template-not-found-names]', async () => {
    const prompts = new PromptRegistry();
    prompts.register('weather', 'forecast', 'Sunny in {{ city }}.');
    const bare = await errorOf(prompts.render('forecast', { city: 'Lyon' }));
    expect(bare.code).toBe('WEFT_TEMPLATE_NOT_FOUND');
    expect(bare.message).toContain('registered templates: weather/forecast.');
    expect(() => prompts.get('forecast')).toThrow(
      expect.objectContaining({ code: 'WEFT_TEMPLATE_NOT_FOUND' }),
    );
    expect(await prompts.render('weather/forecast', { city: 'Lyon' })).toBe('Sunny in Lyon.');
  });

  it('names the missing template and lists the known ones [claim:liq-not-found] [claim:tsdoc-prompts-get]', async () => {
    const prompts = new PromptRegistry();
    prompts.register('chat', 'reply', 'a');
    prompts.register('chat', 'greet', 'b');
    const error = await errorOf(prompts.render('chat/farewell'));
    expect(error.code).toBe('WEFT_TEMPLATE_NOT_FOUND');
    expect(error.message).toBe(
      'PromptRegistry: no template named "chat/farewell"; registered templates: chat/greet, chat/reply. [WEFT_TEMPLATE_NOT_FOUND]',
    );
  });

  it('names a variable the template uses but the caller did not pass [claim:plugin-render-strict] [claim:liq-strict]', async () => {
    const prompts = new PromptRegistry();
    prompts.register('chat', 'reply', 'Dear {{ user.name }}, {{ body }}');
    const error = await errorOf(prompts.render('chat/reply', { body: 'hi' }));
    expect(error.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
    expect(error.message).toContain('rendering "chat/reply" failed');
    expect(error.message).toContain('undefined variable: user');
    const missingBody = await errorOf(prompts.render('chat/reply', { user: { name: 'Ada' } }));
    expect(missingBody.message).toContain('undefined variable: body');
  });

  it('fails on a missing variable in an output, and lets one through a condition and the default filter [claim:errors-template-missing-variable] [claim:plugin-render-lenient]', async () => {
    const prompts = new PromptRegistry();
    prompts.register('chat', 'output', 'Hello {{ name }}');
    prompts.register('chat', 'condition', '{% if name %}{{ name }}{% else %}stranger{% endif %}');
    prompts.register('chat', 'fallback', 'Hello {{ name | default: "stranger" }}');
    const error = await errorOf(prompts.render('chat/output', {}));
    expect(error.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
    expect(error.message).toContain('undefined variable: name');
    expect(await prompts.render('chat/condition', {})).toBe('stranger');
    expect(await prompts.render('chat/fallback', {})).toBe('Hello stranger');
  });

  it('lets optional values be tested with if [claim:liq-optional]', async () => {
    const prompts = new PromptRegistry();
    prompts.register('chat', 'reply', '{% if title %}{{ title }} {% endif %}{{ name }}');
    expect(await prompts.render('chat/reply', { name: 'Ada' })).toBe('Ada');
    expect(await prompts.render('chat/reply', { name: 'Ada', title: 'Dr' })).toBe('Dr Ada');
  });

  it('fails on a misspelt variable in an output, an assign or a for loop, uses the default of an output or assign whose first filter is default, and treats one in an if as false [claim:cu-liquid-strict]', async () => {
    const prompts = new PromptRegistry();
    prompts.register('chat', 'output', 'Hello {{ usr }}');
    prompts.register('chat', 'defaulted', "Hello {{ usr | default: 'you' }}");
    prompts.register('chat', 'assign', '{% assign who = usr %}Hello');
    prompts.register(
      'chat',
      'assign-defaulted',
      "{% assign who = usr | default: 'you' %}Hello {{ who }}",
    );
    prompts.register('chat', 'property', 'Hello {{ user.nmae }}');
    prompts.register('chat', 'loop', '{% for item in itmes %}{{ item }}{% endfor %}');
    prompts.register('chat', 'condition', '{% if usr %}known{% else %}missing{% endif %}');
    const variables = { user: { name: 'Ada' }, items: ['a'] };

    for (const [name, missing] of [
      ['output', 'usr'],
      ['property', 'user.nmae'],
      ['assign', 'usr'],
      ['loop', 'itmes'],
    ] as const) {
      const error = await errorOf(prompts.render(`chat/${name}`, variables));
      expect(error.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
      expect(error.message).toContain(`undefined variable: ${missing}`);
    }
    expect(await prompts.render('chat/defaulted', variables)).toBe('Hello you');
    expect(await prompts.render('chat/assign-defaulted', variables)).toBe('Hello you');
    expect(await prompts.render('chat/condition', variables)).toBe('missing');
    expect(await prompts.render('chat/condition', { usr: 'Ada' })).toBe('known');
  });

  it('lets a missing value through unless, case and a comparison, as through if [claim:liq-lenient-places]', async () => {
    const prompts = new PromptRegistry();
    prompts.register('chat', 'unless', '{% unless usr %}missing{% endunless %}');
    prompts.register(
      'chat',
      'case',
      '{% case usr %}{% when "Ada" %}Ada{% else %}other{% endcase %}',
    );
    prompts.register('chat', 'compare', '{% if usr == "Ada" %}Ada{% else %}other{% endif %}');
    expect(await prompts.render('chat/unless', {})).toBe('missing');
    expect(await prompts.render('chat/case', {})).toBe('other');
    expect(await prompts.render('chat/compare', {})).toBe('other');
    // Missing is nil: equal to nil and blank, not to "" or empty.
    prompts.register(
      'chat',
      'nil',
      '{% if usr == nil %}nil {% endif %}{% if usr == blank %}blank {% endif %}' +
        '{% if usr == "" %}quotes {% endif %}{% if usr == empty %}empty{% endif %}',
    );
    expect(await prompts.render('chat/nil', {})).toBe('nil blank ');
  });

  it('fails on a missing value that assign reads, as an output does, unless default is its first filter [claim:liq-assign-strict]', async () => {
    const prompts = new PromptRegistry();
    prompts.register('chat', 'assign', '{% assign name = usr %}[{{ name }}]');
    prompts.register('chat', 'filtered', '{% assign name = usr | upcase %}[{{ name }}]');
    prompts.register('chat', 'property', '{% assign name = user.name %}[{{ name }}]');
    prompts.register('chat', 'lines', '{% liquid\nassign name = usr\necho name %}');
    for (const [template, variables, missing] of [
      ['chat/assign', {}, 'usr'],
      ['chat/filtered', {}, 'usr'],
      ['chat/property', { user: {} }, 'user.name'],
      ['chat/lines', {}, 'usr'],
    ] as const) {
      const error = await errorOf(prompts.render(template, variables));
      expect(error.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
      expect(error.message).toContain(`undefined variable: ${missing}`);
    }
    expect(await prompts.render('chat/assign', { usr: 'Ada' })).toBe('[Ada]');
    expect(await prompts.render('chat/filtered', { usr: 'Ada' })).toBe('[ADA]');
    // null is passed, and default as the first filter lets a missing value through.
    expect(await prompts.render('chat/assign', { usr: null })).toBe('[]');
    prompts.register(
      'chat',
      'defaulted',
      '{% assign name = usr | default: "you" | upcase %}[{{ name }}]',
    );
    expect(await prompts.render('chat/defaulted', {})).toBe('[YOU]');
  });

  it('renders a variable passed as null, and a property read through it, as nothing; undefined is missing [claim:liq-null-passed]', async () => {
    const prompts = new PromptRegistry();
    prompts.register('chat', 'reply', '[{{ user }}][{{ user.name }}]');
    expect(await prompts.render('chat/reply', { user: null })).toBe('[][]');
    const error = await errorOf(prompts.render('chat/reply', { user: undefined }));
    expect(error.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
    expect(error.message).toContain('undefined variable: user');
  });

  it("reads only an object's own properties: a class's getter is an undefined variable [claim:liq-own-properties]", async () => {
    class User {
      constructor(
        readonly first: string,
        readonly last: string,
      ) {}
      get fullName(): string {
        return `${this.first} ${this.last}`;
      }
    }
    const prompts = new PromptRegistry();
    prompts.register('chat', 'first', 'Hello {{ user.first }}');
    prompts.register('chat', 'full', 'Hello {{ user.fullName }}');
    const user = new User('Ada', 'Lovelace');
    expect(await prompts.render('chat/first', { user })).toBe('Hello Ada');
    const error = await errorOf(prompts.render('chat/full', { user }));
    expect(error.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
    expect(error.message).toContain('undefined variable: user.fullName');
    expect(await prompts.render('chat/full', { user: { fullName: 'Ada Lovelace' } })).toBe(
      'Hello Ada Lovelace',
    );
  });

  it('leaves the variables passed unchanged: increment and decrement count from 0 in every render [claim:liq-variables-unchanged]', async () => {
    const prompts = new PromptRegistry();
    prompts.register(
      'chat',
      'count',
      '{% increment c %}{% increment c %}{% decrement d %},{{ n }}',
    );
    const variables: Record<string, unknown> = { n: 1 };
    expect(await prompts.render('chat/count', variables)).toBe('01-1,1');
    expect(await prompts.render('chat/count', variables)).toBe('01-1,1');
    expect(variables).toEqual({ n: 1 });
    // Frozen variables render too, a counter of the same name included, which starts from it.
    expect(await prompts.render('chat/count', Object.freeze({ n: 2, c: 5 }))).toBe('56-1,2');
  });

  it("still reads Liquid's size, first and last, which are no own properties [claim:liq-size-first-last]", async () => {
    const prompts = new PromptRegistry();
    prompts.register('stats', 'size', '{{ value.size }}');
    prompts.register('stats', 'ends', '{{ items.first }}-{{ items.last }}');
    const size = async (value: unknown) => prompts.render('stats/size', { value });
    expect(await size(['a', 'b', 'c'])).toBe('3');
    expect(await size('text')).toBe('4');
    expect(await size(new Map([['a', 1]]))).toBe('1');
    expect(await size(new Set(['a', 'b']))).toBe('2');
    expect(await size({ a: 1, b: 2 })).toBe('2');
    // A list's size is its length even when it has a size property of its own; an object's own
    // size is its size.
    expect(await size(Object.assign(['a', 'b'], { size: 'own' }))).toBe('2');
    expect(await size({ size: 9, a: 1 })).toBe('9');
    expect(await prompts.render('stats/ends', { items: ['tea', 'milk', 'sugar'] })).toBe(
      'tea-sugar',
    );
  });

  it('fails as an undefined variable on first and last of an empty list or a text, and on size of a number or a boolean [claim:liq-size-first-last-missing]', async () => {
    const prompts = new PromptRegistry();
    prompts.register('stats', 'first', '{{ value.first }}');
    prompts.register('stats', 'last', '{{ value.last }}');
    prompts.register('stats', 'size', '{{ value.size }}');
    for (const [name, value] of [
      ['first', []],
      ['last', []],
      ['first', 'text'],
      ['last', 'text'],
      ['size', 42],
      ['size', true],
    ] as const) {
      const error = await errorOf(prompts.render(`stats/${name}`, { value }));
      expect(error.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
      expect(error.message).toContain(`undefined variable: value.${name}`);
    }
    // A list with items, and an empty text, still give their ends and size.
    expect(await prompts.render('stats/first', { value: ['tea'] })).toBe('tea');
    expect(await prompts.render('stats/size', { value: '' })).toBe('0');
  });

  it('falls back to the default filter’s value when a variable is missing [claim:liq-default-filter]', async () => {
    const prompts = new PromptRegistry();
    prompts.register('digest', 'length', 'At most {{ maxWords | default: 80 }} words.');
    expect(await prompts.render('digest/length', {})).toBe('At most 80 words.');
    expect(await prompts.render('digest/length', { maxWords: 20 })).toBe('At most 20 words.');
    // Only as the first filter: a filter before it reads the missing value first.
    prompts.register('digest', 'first', 'Dear {{ name | default: "you" | upcase }}');
    prompts.register('digest', 'later', 'Dear {{ name | upcase | default: "you" }}');
    expect(await prompts.render('digest/first', {})).toBe('Dear YOU');
    const error = await errorOf(prompts.render('digest/later', {}));
    expect(error.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
    expect(error.message).toContain('undefined variable: name');
  });

  it('names the template that does not parse, at registration [claim:liq-compile-on-register] [claim:liq-register]', async () => {
    // Parsed when registered once liquidjs is loaded, as Runtime.init and loadDirectory load it
    // first (prompts-liquid-on-demand.test.ts covers a registry used before that).
    await loadLiquid();
    const prompts = new PromptRegistry();
    expect(() => prompts.register('poet', 'verse', 'Roses {% for %}')).toThrow(
      expect.objectContaining({
        code: 'WEFT_TEMPLATE_INVALID',
        message: expect.stringContaining('PromptRegistry: template "poet/verse" does not parse'),
      }),
    );
    expect(prompts.has('poet/verse')).toBe(false);
  });

  it('refuses an unknown filter as a template that does not parse, when it is compiled [claim:liq-unknown-filter]', async () => {
    await loadLiquid();
    const prompts = new PromptRegistry();
    const error = await errorOf(() =>
      prompts.register('chat', 'reply', 'Hello {{ name | shout }}'),
    );
    expect(error.code).toBe('WEFT_TEMPLATE_INVALID');
    expect(error.message).toContain(
      'PromptRegistry: template "chat/reply" does not parse: undefined filter: shout',
    );
    expect(prompts.has('chat/reply')).toBe(false);
  });

  it('refuses render, include and layout, which would read a file, when the template is registered [claim:liq-no-files] [claim:errors-template-invalid-file-tags] [claim:tsdoc-prompts-register]', async () => {
    await loadLiquid();
    const prompts = new PromptRegistry();
    // package.json is in the working directory; liquid's default set-up would read it.
    const sources = {
      render: '{% render "package.json" %}',
      include: 'Notes: {% if notes %}{% include "package.json" %}{% endif %}',
      layout: '{% layout "package.json" %}Hello',
      liquid: '{% liquid\n  include "package.json"\n%}',
    };
    for (const [name, source] of Object.entries(sources)) {
      const tag = name === 'liquid' ? 'include' : name;
      const error = await errorOf(() => prompts.register('files', name, source));
      expect(error.code).toBe('WEFT_TEMPLATE_INVALID');
      expect(error.message).toContain(
        `PromptRegistry: template "files/${name}" does not parse: the {% ${tag} %} tag is not supported: templates cannot read files`,
      );
      expect(prompts.has(`files/${name}`)).toBe(false);
    }
  });

  it('gives the engine no file system, so no other way reads a file [claim:liq-no-files]', async () => {
    const engine = await loadLiquid();
    expect(loadedLiquid()).toBe(engine);
    // A file of the working directory, which liquid's default file system would read.
    expect(() => engine.parseFileSync('package.json')).toThrow(
      'ENOENT: Failed to lookup "package.json"',
    );
    await expect(engine.renderFile('package.json')).rejects.toThrow(
      'ENOENT: Failed to lookup "package.json"',
    );
  });

  it('loads no date data until a template formats a date', async () => {
    // The first Intl.DateTimeFormat of a process or page costs tens of milliseconds.
    const dateTimeFormat = vi.spyOn(Intl, 'DateTimeFormat');
    try {
      const prompts = new PromptRegistry();
      prompts.register('greeter', 'hello', 'Hello {{ name }}!');
      expect(await prompts.render('greeter/hello', { name: 'Ada' })).toBe('Hello Ada!');
      expect(dateTimeFormat).not.toHaveBeenCalled();
      prompts.register('diary', 'entry', '{{ when | date: "%B, %A" }}');
      expect(await prompts.render('diary/entry', { when: new Date(2026, 0, 15, 12) })).toBe(
        'January, Thursday',
      );
      expect(dateTimeFormat).toHaveBeenCalled();
    } finally {
      dateTimeFormat.mockRestore();
    }
  });

  it("writes the names of months and days in the system's locale", () => {
    // A child process, as the default locale is fixed when the process starts.
    const script = `
      import { PromptRegistry } from '@weft/core';
      const prompts = new PromptRegistry();
      prompts.register('diary', 'entry', '{{ when | date: "%B, %A" }}');
      console.log(await prompts.render('diary/entry', { when: new Date(2026, 0, 15, 12) }));
    `;
    const output = execFileSync(
      process.execPath,
      ['--conditions=weft-source', '--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: join(import.meta.dirname, '..'), env: { ...process.env, LC_ALL: 'de_DE.UTF-8' } },
    );
    expect(output.toString().trim()).toBe('Januar, Donnerstag');
  });

  it('renders the core templates without liquid [claim:liq-core-functions]', async () => {
    const parse = vi.spyOn(Liquid.prototype, 'parse');
    const render = vi.spyOn(Liquid.prototype, 'renderSync');
    try {
      const prompts = new PromptRegistry();
      prompts.registerCoreTemplates();
      expect(prompts.list()).toEqual([
        'core/get-object',
        'core/get-object-retry',
        'core/pipeline-generation',
        'core/pipeline-modification',
      ]);
      const text = await prompts.render('core/get-object-retry', {
        schemaName: 'Plan',
        error: 'steps: Required',
      });
      expect(text).toBe(
        'Your previous answer was not valid for the schema Plan:\nsteps: Required\n\n' +
          'Answer again with one corrected JSON value that matches the schema, and nothing else.',
      );
      expect(parse).not.toHaveBeenCalled();
      expect(render).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
      render.mockRestore();
    }
  });

  it('names the variable a core template needs and was not given [claim:liq-core-strict]', async () => {
    const prompts = new PromptRegistry();
    prompts.registerCoreTemplates();
    const error = await errorOf(prompts.render('core/get-object', { system: '', schema: '{}' }));
    expect(error.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
    expect(error.message).toContain(
      'PromptRegistry: rendering "core/get-object" failed: undefined variable: schemaName',
    );
  });

  it('writes the system text of getObject before its instruction, and nothing when it is empty', async () => {
    const prompts = new PromptRegistry();
    prompts.registerCoreTemplates();
    const variables = { schemaName: 'Plan', schema: '{ "type": "object" }' };
    const bare = await prompts.render('core/get-object', { ...variables, system: '' });
    expect(bare).toMatch(/^Answer with one JSON value and nothing else/);
    expect(bare.endsWith('JSON Schema (Plan):\n{ "type": "object" }')).toBe(true);
    const framed = await prompts.render('core/get-object', { ...variables, system: 'Be brief.' });
    expect(framed).toBe(`Be brief.\n\n${bare}`);
  });

  it('shows the planning prompt the trigger, the executors and the earlier tasks [claim:liq-planning-prompt]', async () => {
    const prompts = new PromptRegistry();
    prompts.registerCoreTemplates();
    const trigger = { type: 'trigger', pluginId: 'chat', action: 'message', message: 'Hi' };
    const variables = {
      task: { trigger: { ...trigger, data: { room: 7 } } },
      space: { id: 'user-ada', description: "Ada's notes" },
      executors: [{ pluginId: 'chat', action: 'reply', description: 'Answers.' }],
      memories: [],
      relatedText: 'None.',
      maxSteps: 3,
    };
    const text = await prompts.render('core/pipeline-generation', variables);
    expect(text).toContain(
      "## Task\nSpace: user-ada (Ada's notes)\nTrigger: chat/message\nMessage: Hi\n" +
        'Data: {"room":7}\n\n## Executors you may use\n' +
        '- pluginId "chat", action "reply": Answers.\n\n' +
        '## Earlier tasks and related memories, newest first\nNone.\n\n' +
        'Answer with at most 3 steps',
    );
    // Optional fields may be absent or null: the lines they fill are left out.
    const plain = await prompts.render('core/pipeline-generation', {
      ...variables,
      task: { trigger: { ...trigger, message: null } },
      space: { id: 'user-ada' },
    });
    expect(plain).toContain('## Task\nSpace: user-ada\nTrigger: chat/message\n\n## Executors');
  });

  it('shows the review prompt each item of the chain, cutting long data at 400 characters, an error as its error text [claim:task-review-prompt-contents] [claim:exec-data-model-sees] [claim:liq-review-prompt] [claim:tsdoc-plugin-result-data]', async () => {
    const prompts = new PromptRegistry();
    prompts.registerCoreTemplates();
    const trigger = { type: 'trigger', pluginId: 'chat', action: 'message' };
    const long = 'x'.repeat(500);
    const text = await prompts.render('core/pipeline-modification', {
      task: { trigger },
      space: { id: 'user-ada' },
      chain: [
        trigger,
        { type: 'result', pluginId: 'notes', action: 'save', data: { long } },
        { type: 'result', pluginId: 'notes', action: 'list', message: 'Listed.' },
        // An error item shows its error, not its message.
        {
          type: 'error',
          pluginId: 'core',
          action: 'plan',
          error: 'no answer',
          message: 'Sorry, try again.',
        },
      ],
      completed: [],
      remaining: [{ pluginId: 'chat', action: 'reply', reason: 'to answer' }],
      executors: [{ pluginId: 'chat', action: 'reply', description: 'Answers.' }],
      stepsLeft: 2,
    });
    expect(text).toContain(
      '## Executors you may use\n- pluginId "chat", action "reply": Answers.\n',
    );
    for (const answer of [
      '{"type": "continue"}',
      '{"type": "replace", "steps"',
      '{"type": "stop"}',
    ]) {
      expect(text).toContain(answer);
    }
    const cut = `${JSON.stringify({ long }).slice(0, 397)}...`;
    expect(text).toContain(
      '## What happened so far\n- trigger from chat/message: no data\n' +
        `- result from notes/save: ${cut}\n` +
        '- result from notes/list: Listed.\n- error from core/plan: no answer\n\n' +
        '## Remaining steps\n- chat/reply (to answer)\n',
    );
    expect(text).toContain('\n2 more steps may run.');
    const none = await prompts.render('core/pipeline-modification', {
      task: { trigger },
      space: { id: 'user-ada' },
      chain: [trigger],
      completed: [],
      remaining: [],
      executors: [],
      stepsLeft: 0,
    });
    expect(none).toContain('## Remaining steps\nNone.\n');
  });

  it('cuts long data in the review prompt between characters, never inside an emoji [claim:task-review-prompt-contents]', async () => {
    const prompts = new PromptRegistry();
    prompts.registerCoreTemplates();
    const trigger = { type: 'trigger', pluginId: 'chat', action: 'message' };
    // `{"e":"` is 6 code units and an emoji 2: a cut after 397 would keep half of the 196th.
    const text = await prompts.render('core/pipeline-modification', {
      task: { trigger },
      space: { id: 'user-ada' },
      chain: [
        trigger,
        { type: 'result', pluginId: 'notes', action: 'save', data: { e: '😀'.repeat(300) } },
      ],
      completed: [],
      remaining: [],
      executors: [],
      stepsLeft: 1,
    });
    expect(text).toContain(`- result from notes/save: {"e":"${'😀'.repeat(195)}...\n`);
  });

  it("names a step's data that has no JSON form in the review prompt instead of failing to render it [claim:exec-data-no-json-review]", async () => {
    const prompts = new PromptRegistry();
    prompts.registerCoreTemplates();
    const trigger = { type: 'trigger', pluginId: 'chat', action: 'message' };
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const text = await prompts.render('core/pipeline-modification', {
      task: { trigger },
      space: { id: 'user-ada' },
      chain: [
        trigger,
        { type: 'result', pluginId: 'work', action: 'count', data: { seen: 10n } },
        { type: 'result', pluginId: 'work', action: 'make', data: () => 1 },
        { type: 'result', pluginId: 'work', action: 'loop', data: circular },
      ],
      completed: [],
      remaining: [],
      executors: [],
      stepsLeft: 1,
    });
    expect(text).toContain(
      '- result from work/count: data with no JSON form\n' +
        '- result from work/make: data with no JSON form\n' +
        '- result from work/loop: data with no JSON form\n',
    );
  });

  it('renders the planning and review templates without memories or completed, which they do not read [claim:liq-core-unread-variables]', async () => {
    const prompts = new PromptRegistry();
    prompts.registerCoreTemplates();
    const trigger = { type: 'trigger', pluginId: 'chat', action: 'message', message: 'Hi' };
    const executors = [{ pluginId: 'chat', action: 'reply', description: 'Answers.' }];
    const planning = await prompts.render('core/pipeline-generation', {
      task: { trigger },
      space: { id: 'user-ada' },
      executors,
      relatedText: 'None.',
      maxSteps: 3,
    });
    expect(planning).toContain('Answer with at most 3 steps');
    const review = await prompts.render('core/pipeline-modification', {
      task: { trigger },
      space: { id: 'user-ada' },
      chain: [trigger],
      remaining: [],
      executors,
      stepsLeft: 2,
    });
    expect(review).toContain('\n2 more steps may run.');
    // The variables they do read stay required.
    const error = await errorOf(
      prompts.render('core/pipeline-generation', {
        task: { trigger },
        space: { id: 'user-ada' },
        executors,
        maxSteps: 3,
      }),
    );
    expect(error.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
    expect(error.message).toContain('undefined variable: relatedText');
  });

  it('gets each core template by name', () => {
    const prompts = new PromptRegistry();
    prompts.registerCoreTemplates();
    for (const name of prompts.list()) expect(prompts.get(name).templateName).toBe(name);
  });

  it('rejects the core templates beside a core template of the same name', async () => {
    const prompts = new PromptRegistry();
    prompts.register('core', 'get-object', 'Answer in JSON.');
    const error = await errorOf(() => prompts.registerCoreTemplates());
    expect(error.code).toBe('WEFT_DUPLICATE');
    expect(error.message).toContain('template "core/get-object" is already registered');
  });

  it('loads the .liquid files of a directory [claim:liq-load-directory] [claim:tsdoc-node-read-templates]', async () => {
    const directory = await tempDir({
      'reply.liquid': 'Reply to {{ name }}',
      'summary.liquid': 'Summary: {{ text }}',
      'notes.txt': 'not a template',
    });
    const prompts = new PromptRegistry();
    expect(await prompts.loadDirectory('mail', directory)).toEqual(['mail/reply', 'mail/summary']);
    expect(await prompts.render('mail/reply', { name: 'Ada' })).toBe('Reply to Ada');
    expect(prompts.has('mail/notes')).toBe(false);
  });

  it('resolves with the names sorted as list() sorts them, and skips subdirectories [claim:liq-load-directory] [claim:tsdoc-node-read-templates]', async () => {
    // `a-b.liquid` sorts before `a.liquid` ('-' < '.'), but the name `a` before `a-b`.
    const directory = await tempDir({ 'a-b.liquid': 'AB', 'a.liquid': 'A', 'a_c.liquid': 'AC' });
    await mkdir(join(directory, 'nested.liquid'));
    await mkdir(join(directory, 'more'));
    await writeFile(join(directory, 'more', 'inner.liquid'), 'inner');
    const prompts = new PromptRegistry();
    const names = await prompts.loadDirectory('mail', directory);
    expect(names).toEqual(['mail/a', 'mail/a-b', 'mail/a_c']);
    expect(prompts.list()).toEqual(names);
    expect(await prompts.render('mail/a-b')).toBe('AB');
  });

  it.skipIf(process.platform === 'win32')(
    'skips a symbolic link to a directory, as it skips a directory, and reads one to a file [claim:liq-load-directory] [claim:tsdoc-node-read-templates]',
    async () => {
      const directory = await tempDir({ 'a.liquid': 'A' });
      const elsewhere = await tempDir({ 'b.txt': 'B {{ name }}' });
      await symlink(elsewhere, join(directory, 'linked.liquid'));
      await symlink(join(elsewhere, 'b.txt'), join(directory, 'b.liquid'));
      const prompts = new PromptRegistry();
      expect(await prompts.loadDirectory('mail', directory)).toEqual(['mail/a', 'mail/b']);
      expect(await prompts.render('mail/b', { name: 'Ada' })).toBe('B Ada');
    },
  );

  it.skipIf(process.platform === 'win32')(
    'rejects a directory with a file it cannot read, a broken symbolic link, registering none [claim:liq-load-directory]',
    async () => {
      const directory = await tempDir({ 'a.liquid': 'A' });
      await symlink(join(directory, 'gone.txt'), join(directory, 'b.liquid'));
      const prompts = new PromptRegistry();
      const error = await errorOf(prompts.loadDirectory('mail', directory));
      expect(error.code).toBe('WEFT_TEMPLATE_INVALID');
      expect(error.message).toContain(`cannot read templates of "mail" from ${directory}`);
      expect(error.message).toContain('b.liquid');
      expect(prompts.list()).toEqual([]);
    },
  );

  it.skipIf(process.platform === 'win32')(
    'rejects a .liquid named pipe instead of waiting on it, registering none [claim:liq-load-directory]',
    async () => {
      const directory = await tempDir({ 'a.liquid': 'A' });
      execFileSync('mkfifo', [join(directory, 'pipe.liquid')]);
      const prompts = new PromptRegistry();
      const error = await errorOf(prompts.loadDirectory('mail', directory));
      expect(error.code).toBe('WEFT_TEMPLATE_INVALID');
      expect(error.message).toContain('pipe.liquid is not a regular file');
      expect(prompts.list()).toEqual([]);
    },
  );

  it('names the file template that does not parse', async () => {
    const directory = await tempDir({ 'broken.liquid': '{% if %}' });
    const error = await errorOf(new PromptRegistry().loadDirectory('mail', directory));
    expect(error.message).toContain('template "mail/broken" does not parse');
  });

  it("skips hidden files, as a shell's *.liquid does [claim:liq-load-directory] [claim:tsdoc-node-read-templates]", async () => {
    // An editor's lock or backup file; its name could not be a template's.
    const directory = await tempDir({ '.reply.liquid': 'lock', 'reply.liquid': 'Reply' });
    const prompts = new PromptRegistry();
    expect(await prompts.loadDirectory('mail', directory)).toEqual(['mail/reply']);
    expect(prompts.list()).toEqual(['mail/reply']);
  });

  it('registers none of the files when one does not parse, so the fixed directory loads again [claim:liq-load-directory]', async () => {
    const directory = await tempDir({ 'a.liquid': 'A', 'b.liquid': 'B {% if %}' });
    const prompts = new PromptRegistry();
    const error = await errorOf(prompts.loadDirectory('mail', directory));
    expect(error.code).toBe('WEFT_TEMPLATE_INVALID');
    expect(error.message).toContain('template "mail/b" does not parse');
    expect(prompts.list()).toEqual([]);
    await writeFile(join(directory, 'b.liquid'), 'B');
    expect(await prompts.loadDirectory('mail', directory)).toEqual(['mail/a', 'mail/b']);
  });

  it('refuses a file whose name is not a template name, or is taken, registering none [claim:liq-load-directory]', async () => {
    const prompts = new PromptRegistry();
    const badName = await errorOf(
      prompts.loadDirectory('mail', await tempDir({ 'a.liquid': 'A', 'my draft.liquid': 'D' })),
    );
    expect(badName.code).toBe('WEFT_TEMPLATE_INVALID');
    expect(badName.message).toContain('invalid template name "my draft"');
    expect(prompts.list()).toEqual([]);
    prompts.register('mail', 'b', 'taken');
    const taken = await errorOf(
      prompts.loadDirectory('mail', await tempDir({ 'a.liquid': 'A', 'b.liquid': 'B' })),
    );
    expect(taken.code).toBe('WEFT_DUPLICATE');
    expect(taken.message).toContain('template "mail/b" is already registered');
    expect(prompts.list()).toEqual(['mail/b']);
    expect(await prompts.render('mail/b')).toBe('taken');
  });

  it('names the namespace and directory it cannot read [claim:liq-load-directory]', async () => {
    const missing = join(tmpdir(), `weft-missing-${process.pid}-${Date.now()}`);
    const error = await errorOf(new PromptRegistry().loadDirectory('mail', missing));
    expect(error.message).toContain(`cannot read templates of "mail" from ${missing}`);
    expect(error.message).toContain('ENOENT');
  });

  it.skipIf(process.platform === 'win32' || process.getuid?.() === 0)(
    'names a directory without read permission',
    async () => {
      const directory = await tempDir({ 'a.liquid': 'a' });
      await chmod(directory, 0o000);
      try {
        const error = await errorOf(new PromptRegistry().loadDirectory('mail', directory));
        expect(error.message).toContain(`cannot read templates of "mail" from ${directory}`);
      } finally {
        await chmod(directory, 0o700);
      }
    },
  );
});

describe('PromptRegistry errors', () => {
  it('names a missing template WEFT_TEMPLATE_NOT_FOUND, a failed render WEFT_TEMPLATE_RENDER_FAILED and a bad name WEFT_TEMPLATE_INVALID [claim:tsdoc-prompts-register] [claim:tsdoc-prompts-get] [claim:tsdoc-prompts-render]', async () => {
    const prompts = new PromptRegistry();
    prompts.register('core', 'greet', 'Hi {{ name }}');
    expect((await errorOf(() => prompts.get('core/missing'))).code).toBe('WEFT_TEMPLATE_NOT_FOUND');
    expect((await errorOf(prompts.get('core/greet')({}))).code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
    expect((await errorOf(() => prompts.register('core', 'bad name', 'x'))).code).toBe(
      'WEFT_TEMPLATE_INVALID',
    );
  });

  it('refuses a name or namespace that does not start with a letter or digit, though every character is allowed [claim:errors-template-invalid-first-character]', async () => {
    for (const [namespace, name] of [
      ['core', '-greet'],
      ['_mail', 'greet'],
    ] as const) {
      const error = await errorOf(() => new PromptRegistry().register(namespace, name, 'x'));
      expect(error.code).toBe('WEFT_TEMPLATE_INVALID');
      expect(error.message).toContain('start with a letter or digit');
    }
    expect(() => new PromptRegistry().register('a_b', 'c-d.e_f', 'x')).not.toThrow();
  });

  it('refuses a letter outside ASCII in a name or namespace, first or not [claim:errors-template-invalid-ascii]', async () => {
    for (const [namespace, name] of [
      ['mail', 'café'],
      ['mail', 'élan'],
      ['straße', 'greet'],
    ] as const) {
      const error = await errorOf(() => new PromptRegistry().register(namespace, name, 'x'));
      expect(error.code).toBe('WEFT_TEMPLATE_INVALID');
    }
    expect(() => new PromptRegistry().register('Mail', 'Cafe2', 'x')).not.toThrow();
  });
});

/**
 * The TypeScript compiler's diagnostics for a module beside this file that imports
 * `defineTemplate` from the sources; the module is never written to disk.
 */
function typeErrorsOf(code: string): string[] {
  const fileName = path.join(__dirname, 'define-template-check.ts');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    name === fileName
      ? ts.createSourceFile(name, code, language)
      : getSourceFile(name, language, ...rest);
  host.fileExists = (name) => name === fileName || fileExists(name);
  const program = ts.createProgram([fileName], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('defineTemplate', () => {
  const source = (read: string): string =>
    [
      "import { defineTemplate } from '../src/prompts/prompt-template.js';",
      'interface Reminder { who: string; what: string; when?: string }',
      `export const reminder = defineTemplate<Reminder>(['who', 'what'], (${read}) => String(who));`,
    ].join('\n');

  it('has the compiler check each variable the function reads against the given type [claim:liq-define-template]', () => {
    expect(typeErrorsOf(source('{ who, when }'))).toEqual([]);
    expect(typeErrorsOf(source('{ who, whom }'))).toEqual([
      expect.stringContaining("Property 'whom' does not exist on type 'Reminder'"),
    ]);
    // The names listed are the type's too.
    expect(typeErrorsOf(source('{ who }').replace("['who', 'what']", "['who', 'whom']"))).toEqual([
      expect.stringContaining('"whom"'),
    ]);
  }, 60_000);
});

describe('PromptRegistry with function templates', () => {
  const greeting = defineTemplate<{ name: string; title?: string }>(
    ['name'],
    ({ name, title }) => `Hello ${title === undefined ? '' : `${title} `}${name}!`,
  );

  it('renders a function of the variables, with optional ones left out [claim:liq-register]', async () => {
    const prompts = new PromptRegistry();
    prompts.register('greeter', 'hello', greeting);
    expect(prompts.list()).toEqual(['greeter/hello']);
    expect(await prompts.render('greeter/hello', { name: 'Ada' })).toBe('Hello Ada!');
    const template = prompts.get('greeter/hello');
    expect(template.templateName).toBe('greeter/hello');
    expect(await template({ name: 'Hopper', title: 'Dr' })).toBe('Hello Dr Hopper!');
  });

  it('names a declared variable the caller did not pass, without calling the function, and passes null on [claim:liq-function-strict] [claim:liq-function-null] [claim:tsdoc-prompt-template-variables] [claim:tsdoc-define-template-checked]', async () => {
    const render = vi.fn(() => 'never');
    const prompts = new PromptRegistry();
    prompts.register('mail', 'note', Object.assign(render, { variables: ['to', 'body'] }));
    const error = await errorOf(prompts.render('mail/note', { to: 'Ada', body: undefined }));
    expect(error.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
    expect(error.message).toBe(
      'PromptRegistry: rendering "mail/note" failed: undefined variable: body [WEFT_TEMPLATE_RENDER_FAILED]',
    );
    expect(render).not.toHaveBeenCalled();
    // null is a value: the function gets it.
    expect(await prompts.render('mail/note', { to: 'Ada', body: null })).toBe('never');
    expect(render).toHaveBeenCalledWith({ to: 'Ada', body: null });
  });

  it('names a declared variable called like a method of every object, such as toString, when it was not passed [claim:liq-function-strict]', async () => {
    const render = vi.fn(({ toString }: { toString: unknown }) => `said ${String(toString)}`);
    const prompts = new PromptRegistry();
    prompts.register('mail', 'said', defineTemplate<{ toString: unknown }>(['toString'], render));
    const error = await errorOf(prompts.render('mail/said', {}));
    expect(error.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
    expect(error.message).toBe(
      'PromptRegistry: rendering "mail/said" failed: undefined variable: toString [WEFT_TEMPLATE_RENDER_FAILED]',
    );
    expect(render).not.toHaveBeenCalled();
    // Passed, it reaches the function, and so does a value a class gives in its place.
    expect(await prompts.render('mail/said', { toString: 'hi' })).toBe('said hi');
    class Greeting {
      toString(): string {
        return 'hello';
      }
    }
    const greeting = new Greeting();
    await prompts.render('mail/said', greeting as never);
    expect(render).toHaveBeenLastCalledWith(greeting);
  });

  it('fails a liquid render that would allocate past its memory limit, or run past one second, with WEFT_TEMPLATE_RENDER_FAILED [claim:liq-render-limits] [claim:liq-render-limits-count] [claim:errors-template-render-limits]', async () => {
    expect(LIQUID_RENDER_LIMIT_MS).toBe(1_000);
    expect(LIQUID_MEMORY_LIMIT).toBe(10_000_000);
    // The engine renders with exactly these limits: the timings below tell a render that stops
    // from one that runs on, but not a limit of one second from one of three.
    const engine = await loadLiquid();
    expect(engine.options.renderLimit).toBe(1_000);
    expect(engine.options.memoryLimit).toBe(10_000_000);
    const prompts = new PromptRegistry();
    prompts.register('chat', 'range', '{% for i in (1..n) %}x{% endfor %}');
    prompts.register(
      'chat',
      'nested',
      '{% for i in (1..n) %}{% for j in (1..n) %}{% endfor %}{% endfor %}',
    );
    // A range one item past the memory limit is refused before it is made.
    const large = await errorOf(prompts.render('chat/range', { n: LIQUID_MEMORY_LIMIT + 1 }));
    expect(large.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
    expect(large.message).toContain('memory alloc limit exceeded');
    // The largest range allowed is made in full before the time is checked again, so it stops at
    // the time limit plus the time the list takes to make: under a second on a quiet machine, 4.4 s
    // once on a loaded CI machine and 10.6 s on a machine shared by many test runs (load 16 on two
    // cores), so the bound leaves three times that: it tells a render that stops from one that
    // runs on, not how fast the machine is. The test's own timeout leaves room for both bounds.
    const rangeStarted = performance.now();
    const largest = await errorOf(prompts.render('chat/range', { n: LIQUID_MEMORY_LIMIT }));
    expect(largest.message).toContain('template render limit exceeded');
    expect(performance.now() - rangeStarted).toBeLessThan(LIQUID_RENDER_LIMIT_MS + 29_000);
    // Ten billion empty turns fit the memory limit, not the time limit.
    const started = performance.now();
    const slow = await errorOf(prompts.render('chat/nested', { n: 100_000 }));
    expect(slow.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
    expect(slow.message).toContain('template render limit exceeded');
    expect(performance.now() - started).toBeGreaterThanOrEqual(LIQUID_RENDER_LIMIT_MS - 50);
    expect(performance.now() - started).toBeLessThan(LIQUID_RENDER_LIMIT_MS + 29_000);
    // A render within both limits is untouched.
    expect(await prompts.render('chat/range', { n: 3 })).toBe('xxx');
    // What outputs write counts too, `raw` or not, and the echo and cycle tags: eleven outputs of a million characters each.
    prompts.register('chat', 'echo', '{% for i in (1..n) %}{{ text }}{% endfor %}');
    prompts.register('chat', 'raw', '{% for i in (1..n) %}{{ text | raw }}{% endfor %}');
    prompts.register('chat', 'tag', '{% for i in (1..n) %}{% echo text %}{% endfor %}');
    prompts.register('chat', 'cycle', '{% for i in (1..n) %}{% cycle text %}{% endfor %}');
    const text = 'y'.repeat(1_000_000);
    for (const name of ['chat/echo', 'chat/raw', 'chat/tag', 'chat/cycle']) {
      const written = await errorOf(prompts.render(name, { text, n: 11 }));
      expect(written.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
      expect(written.message).toContain('memory alloc limit exceeded');
      expect(await prompts.render(name, { text, n: 9 })).toHaveLength(9_000_000);
    }
    // The text of increment, decrement and tablerow's markup counts too: after an output that
    // leaves room for exactly what the tag writes, it fits; one character more, and it does not.
    for (const [tag, written] of [
      ['{% increment c %}', '0'],
      ['{% decrement c %}', '-1'],
      ['{% tablerow i in list %}{% endtablerow %}', '<tr class="row1"><td class="col1"></td></tr>'],
    ] as const) {
      prompts.register('chat', `tag-${written.length}`, `{{ text }}${tag}`);
      const room = 'y'.repeat(LIQUID_MEMORY_LIMIT - written.length);
      const fits = await prompts.render(`chat/tag-${written.length}`, { text: room, list: [1] });
      expect(fits).toBe(room + written);
      const over = await errorOf(
        prompts.render(`chat/tag-${written.length}`, { text: `${room}y`, list: [1] }),
      );
      expect(over.message).toContain('memory alloc limit exceeded');
    }
    // The template's own text counts each time it is written: exactly the limit renders, one
    // character more does not.
    const limitText = 'z'.repeat(LIQUID_MEMORY_LIMIT);
    prompts.register('chat', 'own-limit', limitText);
    expect(await prompts.render('chat/own-limit', {})).toBe(limitText);
    prompts.register('chat', 'own-over', `${limitText}z`);
    const ownOver = await errorOf(prompts.render('chat/own-over', {}));
    expect(ownOver.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
    expect(ownOver.message).toContain('memory alloc limit exceeded');
    // So a loop cannot repeat it past the limit, whatever number a user chose, whether the text
    // stands between tags, in a raw tag or in a block such as if: a million characters, nine
    // times and eleven times; and ten thousand characters fifty thousand times, which wrote half
    // a billion characters when the template's text was not counted.
    const million = 'z'.repeat(1_000_000);
    for (const [name, body] of [
      ['own-text', million],
      ['own-raw', `{% raw %}${million}{% endraw %}`],
      ['own-if', `{% if true %}${million}{% endif %}`],
    ] as const) {
      prompts.register('chat', name, `{% for i in (1..n) %}${body}{% endfor %}`);
      expect(await prompts.render(`chat/${name}`, { n: 9 })).toHaveLength(9_000_000);
      const over = await errorOf(prompts.render(`chat/${name}`, { n: 11 }));
      expect(over.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
      expect(over.message).toContain('memory alloc limit exceeded');
    }
    prompts.register('chat', 'own-long', `{% for i in (1..n) %}${'z'.repeat(10_000)}{% endfor %}`);
    const ownLong = await errorOf(prompts.render('chat/own-long', { n: 50_000 }));
    expect(ownLong.message).toContain('memory alloc limit exceeded');
  }, 120_000);

  it('fails a liquid render whose last step alone runs past one second, which liquidjs checks only between steps [claim:liq-render-limits] [claim:liq-render-limits-step]', async () => {
    const prompts = new PromptRegistry();
    prompts.register('chat', 'last', 'Result: {{ data.value }}');
    // An own getter stands in for one slow step, such as `sort` over a list of millions of items:
    // it busy-waits twice the limit, so the render cannot end within it however loaded the machine.
    const data = {};
    Object.defineProperty(data, 'value', {
      enumerable: true,
      get() {
        const until = performance.now() + 2 * LIQUID_RENDER_LIMIT_MS;
        while (performance.now() < until) {
          // Busy-wait: the step holds the process as a slow filter would.
        }
        return 'done';
      },
    });
    const error = await errorOf(prompts.render('chat/last', { data }));
    expect(error.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
    expect(error.message).toContain('template render limit exceeded');
  });

  it('names a declared variable called __proto__ when it was not passed, and hands it over when it was [claim:liq-function-strict]', async () => {
    const render = vi.fn((variables: Record<string, unknown>) =>
      String(Object.getOwnPropertyDescriptor(variables, '__proto__')?.value),
    );
    const prompts = new PromptRegistry();
    prompts.register(
      'mail',
      'proto',
      defineTemplate<Record<string, unknown>>(['__proto__'], render),
    );
    const error = await errorOf(prompts.render('mail/proto', {}));
    expect(error.message).toBe(
      'PromptRegistry: rendering "mail/proto" failed: undefined variable: __proto__ [WEFT_TEMPLATE_RENDER_FAILED]',
    );
    expect(render).not.toHaveBeenCalled();
    // JSON.parse makes `__proto__` an own property, as a caller's parsed data would have it.
    expect(await prompts.render('mail/proto', JSON.parse('{"__proto__": "given"}'))).toBe('given');
  });

  it('fails on a missing variable a liquid template outputs or assigns (without a first default filter) or loops over or a function template declares, and calls an undeclaring function as given [claim:cu-prompts-row] [claim:liq-function-unlisted]', async () => {
    const prompts = new PromptRegistry();
    prompts.register('chat', 'output', 'Hello {{ name }}');
    prompts.register('chat', 'defaulted', 'Hello {{ name | default: "you" }}');
    prompts.register('chat', 'assign', '{% assign who = name %}Hello');
    prompts.register(
      'chat',
      'assign-defaulted',
      '{% assign who = name | default: "you" %}Hello {{ who }}',
    );
    prompts.register('chat', 'late-default', 'Hello {{ name | upcase | default: "you" }}');
    prompts.register('chat', 'loop', '{% for item in items %}{{ item }}{% endfor %}');
    prompts.register(
      'chat',
      'declared',
      defineTemplate<{ name: string }>(['name'], ({ name }) => `Hello ${name}`),
    );
    for (const [name, missing] of [
      ['output', 'name'],
      ['assign', 'name'],
      ['loop', 'items'],
      ['declared', 'name'],
      ['late-default', 'name'],
    ] as const) {
      const error = await errorOf(prompts.render(`chat/${name}`, {}));
      expect(error.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
      expect(error.message).toContain(`undefined variable: ${missing}`);
    }
    expect(await prompts.render('chat/defaulted', {})).toBe('Hello you');
    expect(await prompts.render('chat/assign-defaulted', {})).toBe('Hello you');
    // A function that declares no variables is called with what was passed, missing ones too.
    const plain = vi.fn(
      (variables: Readonly<Record<string, unknown>>) => `Hello ${String(variables.name)}`,
    );
    prompts.register('chat', 'plain', plain);
    expect(await prompts.render('chat/plain', {})).toBe('Hello undefined');
    expect(plain).toHaveBeenCalledWith({});
  });

  it('reports a function that throws or returns no text as a failed render', async () => {
    const prompts = new PromptRegistry();
    prompts.register('mail', 'throws', () => {
      throw new Error('no subject');
    });
    prompts.register('mail', 'number', (() => 42) as unknown as PromptTemplate);
    const thrown = await errorOf(prompts.render('mail/throws'));
    expect(thrown.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
    expect(thrown.message).toContain('rendering "mail/throws" failed: no subject');
    const number = await errorOf(prompts.render('mail/number'));
    expect(number.code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
    expect(number.message).toContain('the function returned number, not text');
  });

  it('refuses a name taken by either kind, and a source of neither kind [claim:liq-one-registry] [claim:liq-register] [claim:tsdoc-prompts-register]', () => {
    const prompts = new PromptRegistry();
    prompts.register('chat', 'reply', greeting);
    expect(() => prompts.register('chat', 'reply', 'Hi {{ name }}')).toThrow(
      'template "chat/reply" is already registered',
    );
    prompts.register('chat', 'liquid', 'Hi {{ name }}');
    expect(() => prompts.register('chat', 'liquid', greeting)).toThrow(
      'template "chat/liquid" is already registered',
    );
    let error: unknown;
    try {
      prompts.register('chat', 'object', { text: 'hi' } as unknown as string);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'WEFT_TEMPLATE_INVALID' });
    expect((error as Error).message).toContain(
      'template "chat/object" is neither liquid source text nor a function of its variables',
    );
    expect(prompts.has('chat/object')).toBe(false);
  });
});
