import { Runtime } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { summariseAliases, SummariseAdapter } from './summarise-transform.js';

describe('the summarise transform', () => {
  it('serves summarise through a text-generation provider, the adapter offering no capability itself [claim:tr-example] [claim:mpi-provider-without-capabilities]', async () => {
    const model = new ScriptedModelProvider({
      responses: ['  Weft builds agents from plugins.  '],
    });
    const runtime = await Runtime.init({
      models: [model, new SummariseAdapter()],
      memory: new InMemoryMemoryProvider(),
      plugins: [],
      capabilityAliases: [summariseAliases],
      options: { logger: pino({ level: 'silent' }) },
    });

    const { summary } = await runtime.models.call(
      'summarise',
      {
        text: 'Weft is a TypeScript framework. You build agents from plugins. It is small.',
        sentences: 1,
      },
      { options: { style: 'exact' } },
    );

    expect(summary).toBe('Weft builds agents from plugins.');
    expect(new SummariseAdapter().capabilities).toEqual([]);
    expect(model.requestOptions[0]).toEqual({ temperature: 0.1 });
    expect(model.requests[0]?.[0]).toEqual({
      role: 'system',
      content: "Summarise the user's text in at most 1 sentences.",
    });
  });

  it('cannot be registered without an alias group that holds both ids [claim:tr-one-group] [claim:tr-errors-init]', async () => {
    await expect(
      Runtime.init({
        models: [new ScriptedModelProvider(), new SummariseAdapter()],
        memory: new InMemoryMemoryProvider(),
        plugins: [],
      }),
    ).rejects.toThrow(
      // The whole message, as the transforms page shows it.
      'Runtime.init: invalid configuration: [WEFT_INVALID_CONFIG]\n' +
        '- model "summarise-adapter": CapabilityRegistry: transform "summarise" -> "text-generation" needs both ids in one alias group; add the group to capabilityAliases first. [WEFT_INVALID_ARGUMENT]',
    );
  });
});
