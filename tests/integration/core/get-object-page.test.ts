/**
 * docs/core-utilities/getObject.md shows three messages of `extractInvoice`: the system message,
 * the retry message and the final error. These tests run the example and compare what it really
 * sends and throws with the page's text, so a change to the templates or to the formatting of
 * schemas, validation errors or parse errors shows up as a failing test instead of a stale page.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Runtime } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { describe, expect, it } from 'vitest';
import { extractInvoice } from '../../../examples/core-utilities/invoice.js';
import { errorOf, silentLogger } from './fixtures.js';

const page = readFileSync(
  path.resolve(__dirname, '../../../docs/core-utilities/getObject.md'),
  'utf8',
);
const [systemBlock, retryBlock, finalBlock] = [...page.matchAll(/```text\n([\s\S]*?)\n```/g)].map(
  (match) => match[1] ?? '',
);

const invoice = { vendor: 'Loom & Co', total: 1250, currency: 'EUR', dueDate: '2025-03-14' };

async function modelsWith(model: ScriptedModelProvider) {
  const runtime = await Runtime.init({
    models: [model],
    memory: new InMemoryMemoryProvider(),
    plugins: [],
    options: { logger: silentLogger },
  });
  return runtime.models;
}

/**
 * Splits a system message into its prose and its JSON Schema. The page folds the one-line
 * instruction onto two lines and writes short arrays on one line, as it says; neither changes
 * the words or the schema, which is what is compared.
 */
function parts(message: string): { prose: string; schema: unknown; schemaText: string } {
  const start = message.indexOf('\n{');
  const schemaText = message.slice(start + 1);
  return {
    prose: message.slice(0, start).replace(/\s+/g, ' '),
    schema: JSON.parse(schemaText) as unknown,
    schemaText,
  };
}

describe('docs/core-utilities/getObject.md, the messages of extractInvoice', () => {
  it('finds the three messages on the page', () => {
    expect(systemBlock).toContain('It must match this JSON Schema (Invoice):');
    expect(retryBlock).toContain('Your previous answer was not valid');
    expect(finalBlock).toContain('[WEFT_GET_OBJECT_FAILED]');
  });

  it('sends the system message and the retry message the page shows [claim:go-invoice-messages] [claim:go-system-message] [claim:go-retry-conversation]', async () => {
    const model = new ScriptedModelProvider({
      responses: [{ ...invoice, dueDate: '14 March 2025' }, invoice],
    });
    expect(await extractInvoice(await modelsWith(model), 'An email.')).toEqual(invoice);

    const sent = parts(model.requests[0]?.[0]?.content ?? '');
    const shown = parts(systemBlock ?? '');
    // The system text, then the instruction, then the schema: the same words in the same order.
    expect(sent.prose).toBe(shown.prose);
    expect(sent.schema).toEqual(shown.schema);
    // The page folds the instruction, which is one line in the real message.
    expect(model.requests[0]?.[0]?.content).toContain(
      'nothing else: no prose, no code fences. It must match this JSON Schema (Invoice):\n{',
    );
    // The real schema is indented JSON, two spaces a level, one array item a line.
    expect(sent.schemaText).toBe(JSON.stringify(sent.schema, null, 2));

    const retry = model.requests[1] ?? [];
    expect(retry.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(retry[2]?.content).toBe(JSON.stringify({ ...invoice, dueDate: '14 March 2025' }));
    expect(retry[3]?.content).toBe(retryBlock);
  });

  it('throws the final error the page shows [claim:go-invoice-messages] [claim:go-final-error]', async () => {
    const model = new ScriptedModelProvider({ fallback: 'I think it is about 1250 euros.' });
    const error = await errorOf(extractInvoice(await modelsWith(model), 'An email.'));
    expect(error.code).toBe('WEFT_GET_OBJECT_FAILED');
    expect(error.message).toBe(finalBlock);
    expect(model.requests).toHaveLength(2);
  });
});
