import { formatZodSchema, Runtime } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { extractInvoice, InvoiceSchema } from './invoice.js';

const email =
  'Hello, please pay 1,250.00 EUR to Loom & Co by 14 March 2025. Ref 2025-031.';
const invoice = {
  vendor: 'Loom & Co',
  total: 1250,
  currency: 'EUR',
  dueDate: '2025-03-14',
};

async function modelsWith(model: ScriptedModelProvider) {
  const runtime = await Runtime.init({
    models: [model],
    memory: new InMemoryMemoryProvider(),
    plugins: [],
    options: { logger: pino({ level: 'silent' }) },
  });
  return runtime.models;
}

describe('getObject', () => {
  it('shows the schema to the model as JSON Schema [claim:go-system-message]', async () => {
    const model = new ScriptedModelProvider({ responses: [invoice] });
    expect(await extractInvoice(await modelsWith(model), email)).toEqual(
      invoice,
    );

    const [system, user] = model.requests[0]!;
    expect(system?.content).toContain(
      'You read invoices for an accounts-payable team.',
    );
    expect(system?.content).toContain(formatZodSchema(InvoiceSchema));
    expect(system?.content).toContain(
      '"description": "Amount due, without currency symbol."',
    );
    expect(user).toEqual({ role: 'user', content: email });
  });

  it('asks again with the validation error, and accepts a fenced answer [claim:go-reading]', async () => {
    const model = new ScriptedModelProvider({
      responses: [
        { ...invoice, dueDate: '14 March 2025' },
        '```json\n' + JSON.stringify(invoice) + '\n```',
      ],
    });
    expect(await extractInvoice(await modelsWith(model), email)).toEqual(
      invoice,
    );

    const retry = model.requests[1]!.at(-1)!.content;
    expect(retry).toContain(
      'Your previous answer was not valid for the schema Invoice',
    );
    expect(retry).toContain('dueDate');
  });

  it('throws a WEFT_GET_OBJECT_FAILED error when every attempt fails [claim:go-final-error]', async () => {
    const model = new ScriptedModelProvider({
      fallback: 'I think it is about 1250 euros.',
    });
    const failure = extractInvoice(await modelsWith(model), email);
    await expect(failure).rejects.toMatchObject({
      code: 'WEFT_GET_OBJECT_FAILED',
    });
    await expect(failure).rejects.toThrow(
      `getObject: the model's answer did not match schema "Invoice" after 2 attempt(s); last error: the answer is not JSON`,
    );
  });
});
