import type { Admission, GenerationFailure } from './definitions';

// The state of one generation workflow (workflows/generation.ts) and the only ways it changes. The
// update handler, the provider steps (generation-provider.ts) and settlement
// (generation-settlement.ts) all read this one object and move it only through the transitions
// below, so what each step may see and change is written in one place (the Temporal samples'
// safe-message-handlers shape: the workflow registers handlers and waits; state lives here).

/** A provider job a step may have left running, recorded on the generation's row. */
interface RecordedJob {
  /** The route whose `runProviderJob` or `runProvider` may have left the job running. */
  route: number;
  /** Recorded by a sync step (`runProvider`). */
  sync: boolean;
}

export class GenerationState {
  /** The reservation (or a comparison child's confirmation), once one started. */
  admission: Promise<Admission> | undefined;
  /** Set once the workflow settles to close: no admission may start after that. */
  private closing = false;
  /**
   * The route whose `runProviderJob` or `runProvider` may have left a provider job running: those
   * activities record the job's id on the row, not here, so stopping it goes through the row.
   */
  recordedJob: RecordedJob | undefined;
  /** Captured or refunded: nothing left to settle. */
  settled = false;
  /** Why the generation failed, once it did. */
  failure: GenerationFailure | undefined;
  /** The `Cancel-After` deadline fired (generation-deadline.ts): the job ends canceled, `deadline_exceeded`. */
  deadlineExceeded = false;

  constructor(admission?: Promise<Admission>) {
    this.admission = admission;
  }

  /**
   * The `admit` update: concurrent or repeated admits (a client retry) share the one reservation;
   * once the workflow is closing, a first admit is refused instead of reserving.
   */
  admit(reserve: () => Promise<Admission>): Promise<Admission> {
    if (this.admission === undefined && this.closing) return Promise.resolve({ admitted: false, code: 'admission_timeout' } satisfies Admission);
    this.admission ??= reserve();
    return this.admission;
  }

  /** No admit arrived in time, or none will (an eager start): the workflow admits on its own (see generation.ts). */
  admitUnasked(reserve: () => Promise<Admission>): void {
    this.admission = reserve();
  }

  jobMayRun(job: RecordedJob): void {
    this.recordedJob = job;
  }

  /** The step returned or was stopped: no job of it is left running. */
  jobEnded(): void {
    this.recordedJob = undefined;
  }

  failed(failure: GenerationFailure): void {
    this.failure = failure;
  }

  deadlinePassed(): void {
    this.deadlineExceeded = true;
  }

  closingStarted(): void {
    this.closing = true;
  }

  settledNow(): void {
    this.settled = true;
  }
}
