import {
  spaceId,
  type AgentTask,
  type MemoryManager,
  type Runtime,
  type Space,
} from '@weft/core';

/**
 * Spaces of a support desk, most general part first:
 *
 *   support-billing                   the billing team
 *   support-billing-kb                its knowledge base
 *   support-billing-ticket-1042       one ticket
 *
 * spaceId escapes each part, so a team named "billing-kb" cannot pass for the
 * billing team's knowledge base: its spaces start "support-billing_2dkb".
 */
export function ticketSpace(team: string, ticket: number): Space {
  const kb = spaceId('support', team, 'kb');
  return {
    id: spaceId('support', team, 'ticket', String(ticket)),
    // Tasks of this ticket also see what the team's knowledge base remembers.
    relatedSpaces: [kb, `${kb}-*`],
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
 * The newest 50 memories of the team's spaces: the team, its tickets and its
 * kb. The prefix ends with the separator, so team "bill" does not see team
 * "billing".
 */
export function teamHistory(memory: MemoryManager, team: string) {
  const teamSpace = spaceId('support', team);
  return memory.query({
    space: teamSpace,
    spacePrefix: `${teamSpace}-`,
    limit: 50,
  });
}

/** Only the tickets of a team, whatever their number. */
export function teamTickets(memory: MemoryManager, team: string) {
  return memory.query({
    spacePatterns: [`${spaceId('support', team, 'ticket')}-*`],
    kind: 'trigger',
  });
}
