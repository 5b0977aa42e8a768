import { Runtime } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { FeedbackPlugin } from './feedback-plugin.js';
import { LexiconSentimentProvider } from './lexicon-provider.js';

const logger = pino({ level: 'silent' });
const text = new ScriptedModelProvider({
  fallback: { steps: [{ pluginId: 'feedback', action: 'triage' }] },
});

describe('a custom capability', () => {
  it('is called by id from an executor, with typed input and output', async () => {
    const runtime = await Runtime.init({
      models: [text, new LexiconSentimentProvider()],
      memory: new InMemoryMemoryProvider(),
      plugins: [new FeedbackPlugin()],
      options: { logger, pipelineReview: 'never' },
    });
    await runtime.start();
    try {
      const task = await runtime.dispatch({
        pluginId: 'feedback',
        triggerId: 'form',
        space: 'feedback',
        message: 'The app is slow and the export is broken.',
      });
      expect(task.chain.at(-1)).toMatchObject({
        type: 'result',
        data: { label: 'negative', queue: 'support' },
      });
    } finally {
      await runtime.stop();
    }
  });

  it('validates input before the provider sees it [claim:cap-run-validated]', async () => {
    const lexicon = new LexiconSentimentProvider();
    const runtime = await Runtime.init({
      models: [text, lexicon],
      memory: new InMemoryMemoryProvider(),
      plugins: [],
      options: { logger },
    });
    const run = vi.spyOn(lexicon.capabilities[0]!, 'run');
    await expect(
      runtime.models.call('sentiment', { text: '' }),
    ).rejects.toThrow(
      'ModelManager: input for capability "sentiment" is invalid',
    );
    await expect(
      runtime.models.call('sentiment', { text: '' }),
    ).rejects.toThrow('text must not be empty');
    // Rejected before `run` was ever called.
    expect(run).not.toHaveBeenCalled();
    await runtime.models.call('sentiment', { text: 'works' });
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('uses the first provider, or the default one, when several offer the capability [claim:cap-choose-provider] [claim:mpi-selection-order]', async () => {
    const served: string[] = [];
    const init = (defaultProviders: Record<string, string>) =>
      Runtime.init({
        models: [
          text,
          new LexiconSentimentProvider('fast'),
          new LexiconSentimentProvider('careful'),
        ],
        memory: new InMemoryMemoryProvider(),
        plugins: [],
        options: {
          logger,
          defaultProviders,
          analytics: {
            trackers: [{ onModelCall: (call) => served.push(call.providerId) }],
          },
        },
      });
    // No default: the first provider in `models` that offers it.
    const plain = await init({});
    await plain.models.call('sentiment', { text: 'great work' });
    const runtime = await init({ sentiment: 'careful' });
    const { label } = await runtime.models.call('sentiment', {
      text: 'great work, thanks',
    });
    await runtime.models.call(
      'sentiment',
      { text: 'great work' },
      { provider: 'fast' },
    );
    expect(label).toBe('positive');
    expect(served).toEqual(['fast', 'careful', 'fast']);
  });

  it('takes as default only a provider that offers it: Runtime.init names the entry [claim:cap-default-checked]', async () => {
    await expect(
      Runtime.init({
        models: [text, new LexiconSentimentProvider('careful')],
        memory: new InMemoryMemoryProvider(),
        plugins: [],
        options: { logger, defaultProviders: { sentiment: 'scripted' } },
      }),
    ).rejects.toThrow(
      'options.defaultProviders["sentiment"]: ModelManager: provider "scripted" does not offer capability "sentiment"',
    );
  });

  it('is required: Runtime.init names the plugin when no provider offers it [claim:cap-required-missing]', async () => {
    await expect(
      Runtime.init({
        models: [text],
        memory: new InMemoryMemoryProvider(),
        plugins: [new FeedbackPlugin()],
      }),
    ).rejects.toThrow(
      'plugin "feedback": requires capability "sentiment", which no model provider offers',
    );
  });
});
