/**
 * Tickets of a lost session that the scheduler still holds: it gives each back once (a run that
 * was aborted, a wait that was refused or cut short). Their rows stay as they are, for whichever
 * instance takes them over; until the scheduler has given a ticket back, this instance does not
 * take it over itself, so one ticket is never queued here twice.
 */
export class Orphans {
  private readonly spaces = new Map<number, string>();
  /** The instance key of the lost session that was running the ticket's task, for those it was. */
  private readonly runners = new Map<number, string>();
  private readonly bySpace = new Map<string, Set<number>>();

  /** How many tickets the scheduler still holds. */
  get size(): number {
    return this.spaces.size;
  }

  /**
   * Records a ticket of a lost session and its space; `ranBy`, the session's instance key, when
   * the session held the space for that ticket (its task was running).
   */
  add(ticket: number, space: string, ranBy?: string): void {
    if (this.spaces.has(ticket)) return;
    this.spaces.set(ticket, space);
    if (ranBy !== undefined) this.runners.set(ticket, ranBy);
    const tickets = this.bySpace.get(space);
    if (tickets) tickets.add(ticket);
    else this.bySpace.set(space, new Set([ticket]));
  }

  /** Forgets a ticket the scheduler gave back; `true` when it was one. */
  forget(ticket: number): boolean {
    const space = this.spaces.get(ticket);
    if (space === undefined) return false;
    this.spaces.delete(ticket);
    this.runners.delete(ticket);
    const tickets = this.bySpace.get(space);
    tickets?.delete(ticket);
    if (tickets?.size === 0) this.bySpace.delete(space);
    return true;
  }

  /** The instance key of the lost session that was running the ticket's task, if it was. */
  ranBy(ticket: number): string | undefined {
    return this.runners.get(ticket);
  }

  /** The oldest ticket of a lost session the scheduler still holds in this space, if any. */
  oldestIn(space: string): number | undefined {
    const tickets = this.bySpace.get(space);
    return tickets ? Math.min(...tickets) : undefined;
  }

  /** Every ticket held, for the takeover query to leave alone. */
  tickets(): number[] {
    return [...this.spaces.keys()];
  }
}
