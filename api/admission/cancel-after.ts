import type { IncomingHttpHeaders } from 'node:http';
import { parseCancelAfter } from '../../domain/cancel-after';
import { providerBudgetMs, type GenerationTimeouts } from '../../domain/generation-timeouts';
import type { Modality } from '../../domain/modalities';
import { ApiError } from '../errors';

// Reads a creation request's `Cancel-After` header (domain/cancel-after.ts) into the job's deadline,
// before anything is reserved: a bad or too-long value is 400 validation_failed with
// `param: Cancel-After`.

/** The deadline (epoch ms) the header sets, counted from `now`; undefined without the header. */
export function deadlineFromHeader(headers: IncomingHttpHeaders, modality: Modality, timeouts: GenerationTimeouts, now: number): number | undefined {
  const header = headers['cancel-after'];
  if (header === undefined) return undefined;
  const verdict = parseCancelAfter(String(header).trim(), providerBudgetMs(modality, timeouts));
  if (!verdict.ok) throw new ApiError('validation_failed', verdict.message, { param: 'Cancel-After' });
  return now + verdict.ms;
}
