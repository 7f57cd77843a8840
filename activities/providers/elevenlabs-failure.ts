import { ElevenLabsError } from '@elevenlabs/elevenlabs-js';
import { answerTooLargeFailure } from './capped-answers';
import { badOutput, failureFromNetwork, failureFromStatus, PROVIDER_ERROR_CODES } from './http-failure';
import { ProviderError } from './types';

// How the ElevenLabs SDK's errors become the ProviderErrors of http-failure.ts. ElevenLabs answers a
// failure with `{detail: {status|code, message}}` (a plain string, or FastAPI's list of field
// errors on a 422); the SDK throws it as an ElevenLabsError with `statusCode`, `body` and the raw
// response (for Retry-After), or without a status when the request got no answer.

export const PROVIDER = 'ElevenLabs';

/**
 * Codes ElevenLabs documents for prompts it refuses on policy grounds (Eleven Music: copyrighted or
 * harmful material), which http-failure's wording check would take for a plain validation error.
 */
const POLICY_CODES = new Set(['bad_prompt', 'bad_composition_plan']);

/** The two signals a request runs under: the activity's, and this request's own deadline. */
export interface RequestSignals {
  cancelled: AbortSignal;
  /** Aborted (with a TimeoutError) when the provider has not answered within the request timeout. */
  deadline: AbortSignal;
}

/** What to throw for an error from one SDK call (or from reading its answer's body). */
export function failureFromElevenLabs(err: unknown, signals: RequestSignals): unknown {
  // A cancelled activity's abort goes through untouched, so Temporal sees the cancellation.
  if (signals.cancelled.aborted || err instanceof ProviderError) return err;
  const tooLarge = answerTooLargeFailure(PROVIDER, err);
  if (tooLarge) return tooLarge;
  // Our own deadline, whatever shape the SDK gave the abort it caused.
  if (signals.deadline.aborted) return failureFromNetwork(PROVIDER, signals.deadline.reason, signals.cancelled);
  if ((err as { name?: string })?.name === 'ParseError') return badOutput(PROVIDER, 'an answer of the wrong shape');
  if (!(err instanceof ElevenLabsError)) return failureFromNetwork(PROVIDER, err, signals.cancelled);
  const status = err.statusCode;
  if (status === undefined) return failureFromNetwork(PROVIDER, err.cause ?? err, signals.cancelled);
  // A success status the SDK could not read (a JSON endpoint answering something else).
  if (status >= 200 && status < 300) return badOutput(PROVIDER, `an unreadable HTTP ${status} answer`);
  const { code, message } = readDetail(err.body);
  const detail = [code, message].filter(Boolean).join(': ');
  if (code && POLICY_CODES.has(code)) {
    return new ProviderError(PROVIDER_ERROR_CODES.contentPolicy, `${PROVIDER} refused the request under its content policy: ${detail.slice(0, 300)}`);
  }
  return failureFromStatus(PROVIDER, status, detail, err.rawResponse?.headers.get('retry-after'));
}

/** The code and message of an ElevenLabs error body, in any of its shapes. */
export function readDetail(body: unknown): { code?: string; message?: string } {
  if (typeof body === 'string') return { message: body };
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (typeof detail === 'string') return { message: detail };
  if (Array.isArray(detail)) {
    // FastAPI's validation errors: [{loc: ['body', 'text'], msg: 'field required', type}].
    const fields = detail.map((d: { loc?: unknown[]; msg?: string }) => `${(d.loc ?? []).slice(1).join('.') || 'body'}: ${d.msg ?? 'invalid'}`);
    return { code: 'validation_error', message: fields.join('; ') };
  }
  if (detail && typeof detail === 'object') {
    const { code, status, message } = detail as Record<string, unknown>;
    const name = typeof code === 'string' ? code : typeof status === 'string' ? status : undefined;
    return { ...(name && { code: name }), ...(typeof message === 'string' && { message }) };
  }
  return {};
}
