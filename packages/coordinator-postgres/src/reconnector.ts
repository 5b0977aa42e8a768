import { describeTarget, maskedMessage, type ResolvedCoordinatorOptions } from './options.js';
import { closeSession, reconnectDelay, type Session } from './session.js';

/**
 * Longest a reconnection waits for the scheduler to give back the tasks of the lost session
 * (aborted runs end, refused waits fail), so that the new session never shares a space's queue
 * with them. Aborted tasks end at once, bar storing their chain, which the runtime bounds at 10 s.
 */
const DRAIN_LIMIT_MS = 15_000;
/** How often a reconnection looks again whether those tasks are gone. */
const DRAIN_POLL_MS = 20;

/** What a {@link Reconnector} needs of its coordinator. */
export interface ReconnectorHost {
  /** Opens a new session. */
  open(): Promise<Session>;
  /** How many tasks of lost sessions the scheduler still holds. */
  pending(): number;
  /** Takes a new session; `false` when the coordinator no longer wants one (it stopped). */
  adopt(session: Session, attempts: number): boolean;
}

/**
 * Opens a new session after the lost one, attempt after attempt with a capped, jittered
 * exponential delay (see {@link reconnectDelay}), until one opens or {@link Reconnector.stop}.
 */
export class Reconnector {
  private timer: NodeJS.Timeout | undefined;
  private attempt: Promise<void> | undefined;
  private drainDeadline = 0;
  private stopped = false;

  constructor(
    private readonly options: ResolvedCoordinatorOptions,
    private readonly host: ReconnectorHost,
  ) {}

  /** Starts reconnecting; the first attempt waits for the lost session's tasks, within a limit. */
  start(): void {
    this.drainDeadline = Date.now() + DRAIN_LIMIT_MS;
    this.schedule(0, reconnectDelay(0, this.options));
  }

  /** Stops reconnecting and waits for an attempt under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.attempt;
  }

  private schedule(attempt: number, delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      if (this.host.pending() > 0 && Date.now() < this.drainDeadline) {
        this.schedule(attempt, DRAIN_POLL_MS);
        return;
      }
      this.attempt = this.connect(attempt).finally(() => {
        this.attempt = undefined;
      });
    }, delayMs);
  }

  private async connect(attempt: number): Promise<void> {
    let session: Session;
    try {
      session = await this.host.open();
    } catch (error) {
      const nextDelayMs = reconnectDelay(attempt + 1, this.options);
      this.options.logger.warn(
        {
          attempt: attempt + 1,
          nextDelayMs,
          target: describeTarget(this.options.connectionString),
          error: maskedMessage(error, this.options.connectionString),
        },
        'reconnecting to PostgreSQL failed; trying again',
      );
      this.schedule(attempt + 1, nextDelayMs);
      return;
    }
    if (this.stopped || !this.host.adopt(session, attempt + 1)) {
      await closeSession(session, this.options.connectTimeoutMs);
    }
  }
}
