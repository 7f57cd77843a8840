// The provider steps of a generation, composed. Sync modalities run `runProvider` as one local
// activity, async ones `runProviderJob`, a heartbeating activity (./run-job.ts). Both submit
// (./submit-job.ts), record a job the provider queued on the row, and poll it until done
// (./polling.ts): a step that runs again (its worker died, a poll failed) resumes that job instead of
// paying for a second, and a fallback or a settlement cancels it from the row
// (`cancelRecordedProviderJob`, ./cancel-recorded-job.ts). Files go to storage inside the step that
// produced them (./store-outputs.ts); only their rows travel through Temporal.
//
// Each step runs on one route (`routeIndex` into input.routes); the workflow moves to the next
// route when one keeps failing with retryable errors. Every provider call that ends is appended to
// the generation's `attempts` (its provenance, ./attempts.ts).
import type { Repos } from '../../db/repos';
import type { Storage } from '../../storage/types';
import type { PollHints } from '../poll-hints';
import type { ProviderRegistry } from '../providers/registry';
import { createAttemptRecorder } from './attempts';
import { createRecordedJobCancellation } from './cancel-recorded-job';
import { createPoller } from './polling';
import { createProviderJobContext } from './provider-job';
import { createProviderRunActivities } from './run-job';
import { createOutputStore, type OutputCaps } from './store-outputs';
import { createJobSubmitter } from './submit-job';

export function createGenerationActivities(deps: {
  repos: Repos;
  storage: Storage;
  providers: ProviderRegistry;
  /** The signed callback URL of a generation, when the API can receive callbacks. */
  callbackUrlFor?: (generationId: string, expiresAt: Date) => string;
  /** The callbacks' hints, which cut a poll's wait short; without them polls keep their schedule. */
  pollHints?: PollHints;
  /** Per-modality output caps, in bytes; domain/output-limits.ts without them. */
  outputCapsBytes?: OutputCaps;
  /** ALLOW_PRIVATE_INPUT_URLS: output URLs on private addresses (tests, development). */
  allowPrivateOutputUrls?: boolean;
  /** How long fetching one output file may take. */
  outputFetchTimeoutMs?: number;
  /** How long recording a submitted job waits out a database outage (RECORD_JOB_PATIENCE_MS without it). */
  recordJobPatienceMs?: number;
}) {
  const { repos } = deps;
  const jobs = createProviderJobContext(deps);
  const recorded = createAttemptRecorder(repos);
  const storeOutputs = createOutputStore(deps);
  const pollUntilDone = createPoller(deps);
  const submit = createJobSubmitter({ ...deps, recorded, storeOutputs });
  const steps = { ...deps, jobs, submit, pollUntilDone, recorded, storeOutputs };
  return {
    ...createProviderRunActivities(steps),
    ...createRecordedJobCancellation(steps),
  };
}
