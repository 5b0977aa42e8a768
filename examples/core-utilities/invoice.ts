import type { ModelManager } from '@weft/core';
import { z } from 'zod';

/**
 * What an invoice email must yield. `.describe()` texts are shown to the model.
 */
export const InvoiceSchema = z.object({
  vendor: z.string().min(1).describe('Company that sent the invoice.'),
  total: z.number().positive().describe('Amount due, without currency symbol.'),
  currency: z.enum(['EUR', 'USD', 'GBP']),
  dueDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .describe('YYYY-MM-DD'),
});

export type Invoice = z.infer<typeof InvoiceSchema>;

/**
 * Reads the invoice details out of an email, or throws after two failed
 * attempts.
 */
export async function extractInvoice(
  models: ModelManager,
  email: string,
): Promise<Invoice> {
  return models.getObject({
    schema: InvoiceSchema,
    schemaName: 'Invoice',
    system:
      'You read invoices for an accounts-payable team. Never guess an amount.',
    prompt: email,
    maxRetries: 1,
    request: { options: { temperature: 0 } },
  });
}
