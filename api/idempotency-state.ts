// What the idempotency middleware hands to the handler in ctx.state. It lives apart from the
// middleware so that api/context.ts can name it without importing middleware that imports it.
import type { HeldClaim } from '../db/repos/idempotency-keys';

export interface IdempotencyState {
  /** The id of the resource this request creates (a generation id); null when it creates none. */
  resourceId: string | null;
  /** A retry of an abandoned request: the job may already exist. */
  takenOver: boolean;
  held: HeldClaim;
  /** The handler already remembered its answer, in its own transaction (completeInTransaction). */
  completed: boolean;
}
