import { PluginRegistry, type Plugin, type Trigger } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { recordingExecutor, TestPlugin } from './fixtures.js';

const start = (id: string): Trigger => ({ type: 'start', id, start: () => undefined });
const route = (id: string, path = '/hook', method: 'GET' | 'POST' = 'POST'): Trigger => ({
  type: 'route',
  id,
  method,
  path,
  handler: () => undefined,
});

describe('PluginRegistry', () => {
  it('refuses the reserved id "core", which names the runtime itself [claim:plugin-id-rule] [claim:tsdoc-plugin-id]', () => {
    const problems = new PluginRegistry().validate(new TestPlugin('core'));
    expect(problems).toEqual([
      'plugin "core": the id is reserved for the runtime\'s own templates and chain items; choose another',
    ]);
  });

  it('registers plugins and finds their executors and triggers', () => {
    const registry = new PluginRegistry();
    const reply = recordingExecutor('reply');
    const search = recordingExecutor('search');
    const chat = new TestPlugin('chat', {
      executors: [reply],
      triggers: [route('message', '/chat'), start('poll')],
    });
    const web = new TestPlugin('web', { executors: [search], triggers: [start('warm')] });
    registry.register(chat);
    registry.register(web);
    expect(registry.get('chat')).toBe(chat);
    expect(registry.get('nope')).toBeUndefined();
    expect(registry.list()).toEqual([chat, web]);
    expect(registry.getExecutor('web', 'search')).toBe(search);
    expect(registry.getExecutor('web', 'reply')).toBeUndefined();
    expect(registry.getExecutor('ghost', 'reply')).toBeUndefined();
    expect(
      registry.executors().map(({ pluginId, executor }) => `${pluginId}/${executor.action}`),
    ).toEqual(['chat/reply', 'web/search']);
    expect(
      registry
        .routes()
        .map(({ pluginId, route: found }) => `${pluginId} ${found.method} ${found.path}`),
    ).toEqual(['chat POST /chat']);
    expect(
      registry.startTriggers().map(({ pluginId, trigger }) => `${pluginId}/${trigger.id}`),
    ).toEqual(['chat/poll', 'web/warm']);
  });

  it('lists every problem of a plugin at once, naming it [claim:plugin-registration-all-problems] [claim:tsdoc-plugin-registry-register]', () => {
    const registry = new PluginRegistry();
    registry.register(new TestPlugin('first', { triggers: [route('hook', '/taken')] }));
    const plugin = new TestPlugin('second', {
      executors: [
        recordingExecutor('go'),
        recordingExecutor('go'),
        recordingExecutor('quiet', undefined, ''),
        { action: '', description: 'x', execute: async () => ({ success: true }) },
        { action: 'broken', description: 'x' } as never,
      ],
      triggers: [
        start('tick'),
        start('tick'),
        route('clash', '/taken'),
        route('relative', 'no-slash'),
        {
          type: 'route',
          id: 'verb',
          method: 'TRACE',
          path: '/v',
          handler: () => undefined,
        } as never,
        { type: 'start', id: 'lazy' } as never,
        { type: 'webhook', id: 'odd' } as never,
        { type: 'start' } as never,
      ],
    });
    const problems = registry.validate(plugin);
    expect(problems).toEqual([
      'plugin "second": executor action "go" is defined twice',
      'plugin "second": executor "quiet" needs a description (the model chooses executors by it)',
      'plugin "second": an executor has no action name',
      'plugin "second": executor "broken" has no execute function',
      'plugin "second": trigger id "tick" is used twice',
      'plugin "second": route POST /taken of trigger "clash" is already taken',
      'plugin "second": trigger "relative" path must start with "/" (got "no-slash")',
      'plugin "second": trigger "verb" has unsupported method "TRACE"',
      'plugin "second": trigger "lazy" has no start function',
      'plugin "second": trigger "odd" has unknown type "webhook"; use "route" or "start"',
      'plugin "second": a trigger has no id',
    ]);
    expect(() => registry.register(plugin)).toThrow(
      /^PluginRegistry: cannot register plugin: \[WEFT_INVALID_ARGUMENT\]\n- plugin "second"/,
    );
    expect(registry.get('second')).toBeUndefined();
  });

  it('rejects an invalid or duplicate id [claim:tsdoc-plugin-id]', () => {
    const registry = new PluginRegistry();
    expect(registry.validate(new TestPlugin('Chat'))).toEqual([
      'plugin "Chat": id must be lower-case letters, digits and dashes, starting with a letter (got "Chat")',
    ]);
    registry.register(new TestPlugin('chat'));
    expect(() => registry.register(new TestPlugin('chat'))).toThrow(
      'plugin "chat": another plugin already has this id',
    );
  });

  it('allows the same path with different methods', () => {
    const registry = new PluginRegistry();
    registry.register(new TestPlugin('reader', { triggers: [route('read', '/items', 'GET')] }));
    expect(
      registry.validate(new TestPlugin('writer', { triggers: [route('write', '/items', 'POST')] })),
    ).toEqual([]);
  });

  it('names an object that does not extend Plugin', () => {
    const registry = new PluginRegistry();
    const notAPlugin = { id: 'fake', description: 'x' } as unknown as Plugin;
    expect(registry.validate(notAPlugin)).toEqual([
      'plugin "fake": executors and triggers must be arrays; does the plugin extend Plugin?',
    ]);
  });
});
