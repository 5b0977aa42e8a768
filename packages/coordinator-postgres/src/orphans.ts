/**
 * Tickets of a lost session that the scheduler still holds: it gives each back once (a run that
 * was aborted, a wait that was refused or cut short). Their rows stay as they are, for whichever
 * instance takes them over; until the scheduler has given a ticket back, this instance does not
 * take it over itself, so one ticket is never queued here twice.
 */
export class Orphans {
  private readonly spaces = new Map<number, string>();
  /** The instance key of each ticket's lost session, which its row still names as its owner. */
  private readonly owners = new Map<number, string>();
  private readonly bySpace = new Map<string, Set<number>>();

  /** How many tickets the scheduler still holds. */
  get size(): number {
    return this.spaces.size;
  }

  /** Records a ticket of a lost session, its space and that session's instance key. */
  add(ticket: number, space: string, owner: string): void {
    if (this.spaces.has(ticket)) return;
    this.spaces.set(ticket, space);
    this.owners.set(ticket, owner);
    const tickets = this.bySpace.get(space);
    if (tickets) tickets.add(ticket);
    else this.bySpace.set(space, new Set([ticket]));
  }

  /** Forgets a ticket the scheduler gave back; the owner key its row names when it was one. */
  forget(ticket: number): string | undefined {
    const space = this.spaces.get(ticket);
    const owner = this.owners.get(ticket);
    if (space === undefined || owner === undefined) return undefined;
    this.spaces.delete(ticket);
    this.owners.delete(ticket);
    const tickets = this.bySpace.get(space);
    tickets?.delete(ticket);
    if (tickets?.size === 0) this.bySpace.delete(space);
    return owner;
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
