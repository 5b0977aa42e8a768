import type { AgentTask, MemoryManager, Runtime, Space } from '@weft/core';

/**
 * Spaces of a support desk, most general part first:
 *
 *   support-billing                   the billing team
 *   support-billing-kb                its knowledge base
 *   support-billing-ticket-1042       one ticket
 */
export function ticketSpace(team: string, ticket: number): Space {
  return {
    id: `support-${team}-ticket-${ticket}`,
    // Tasks of this ticket also see what the team's knowledge base remembers.
    relatedSpaces: [`support-${team}-kb*`],
    description: `Support ticket ${ticket} of the ${team} team`,
  };
}

/** Turns a customer's message on a ticket into a task. */
export function onTicketMessage(
  runtime: Runtime,
  team: string,
  ticket: number,
  text: string,
): Promise<AgentTask> {
  return runtime.dispatch({
    pluginId: 'support',
    triggerId: 'ticket-message',
    space: ticketSpace(team, ticket),
    message: text,
  });
}

/**
 * Everything the team's spaces remember, newest first: the team, its tickets
 * and its kb.
 */
export function teamHistory(memory: MemoryManager, team: string) {
  return memory.query({ spacePrefix: `support-${team}`, limit: 50 });
}

/** Only the tickets of a team, whatever their number. */
export function teamTickets(memory: MemoryManager, team: string) {
  return memory.query({
    spacePatterns: [`support-${team}-ticket-*`],
    kind: 'trigger',
  });
}
