import type { ModelManager } from '@weft/core';
import { z } from 'zod';

/**
 * A schema a small local model can fill: flat, few fields, short enums, no
 * optional branches. Deeply nested or long schemas are where small models
 * start answering prose or leaving fields out.
 */
export const TicketTriage = z.object({
  category: z.enum(['billing', 'bug', 'other']),
  urgent: z.boolean(),
  summary: z.string(),
});

/**
 * Asks for a triage with a few more attempts than the runtime's default and
 * at temperature 0, which makes a small model's JSON far more regular.
 */
export function triage(models: ModelManager, ticket: string) {
  return models.getObject({
    schema: TicketTriage,
    schemaName: 'TicketTriage',
    system:
      'Example answer: {"category": "bug", "urgent": false, "summary": "Export button does nothing"}',
    prompt: `Triage this support ticket:\n${ticket}`,
    maxRetries: 4,
    request: { options: { temperature: 0 } },
  });
}
