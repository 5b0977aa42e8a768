/**
 * Tickets of a lost session that the scheduler still holds: it gives each back once (a run that
 * was aborted, a wait that was refused). Their rows stay as they are, for whichever instance
 * takes them over; until the scheduler has given a ticket back, this instance does not take it
 * over itself, so one ticket is never queued here twice.
 */
export class Orphans {
  private readonly spaces = new Map<number, string>();
  private readonly perSpace = new Map<string, number>();

  /** Records a ticket of a lost session and its space. */
  add(ticket: number, space: string): void {
    if (this.spaces.has(ticket)) return;
    this.spaces.set(ticket, space);
    this.perSpace.set(space, (this.perSpace.get(space) ?? 0) + 1);
  }

  /** Forgets a ticket the scheduler gave back; `true` when it was one. */
  forget(ticket: number): boolean {
    const space = this.spaces.get(ticket);
    if (space === undefined) return false;
    this.spaces.delete(ticket);
    const left = (this.perSpace.get(space) ?? 1) - 1;
    if (left === 0) this.perSpace.delete(space);
    else this.perSpace.set(space, left);
    return true;
  }

  /** How many tickets the scheduler still holds. */
  get size(): number {
    return this.spaces.size;
  }

  /** Whether the scheduler still holds a ticket of a lost session in this space. */
  inSpace(space: string): boolean {
    return this.perSpace.has(space);
  }

  /** Every ticket held, for the takeover query to leave alone. */
  tickets(): number[] {
    return [...this.spaces.keys()];
  }
}
