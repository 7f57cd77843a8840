import { PROVIDER_ERROR_CODES } from './http-failure';
import { ProviderError } from './types';

// Providers that put their files inside the JSON answer (OpenAI's images as base64, Replicate's
// small outputs as data: URLs) are read under a bound, as files fetched by URL are
// (ingest-output.ts): the SDK reads the answer whole before the gateway sees a byte of it, so the
// bound has to be in the fetch the SDK calls.

/** The JSON around inline files: ids, timings, a prediction's logs. */
const ENVELOPE_BYTES = 1024 * 1024;

/**
 * A chat answer's or a transcript's text is small next to this (a million output tokens of text is
 * about 4 MB); the bound stops a server whose answer never ends.
 */
export const TEXT_ANSWER_CAP_BYTES = 16 * 1024 * 1024;

/** An answer stopped at its cap. The SDK reading it rejects with this error (or one caused by it). */
export class AnswerTooLarge extends Error {
  constructor(readonly capBytes: number) {
    super(`The answer is larger than ${capBytes} bytes.`);
    this.name = 'AnswerTooLarge';
  }
}

/** What an answer holding up to `files` files of at most `capBytes` each, in base64, may take. */
export function inlineAnswerCap(capBytes: number, files: number): number {
  return Math.ceil(capBytes / 3) * 4 * Math.max(1, files) + ENVELOPE_BYTES;
}

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * `send`, with every answer's body cut off past `capBytes`: refused up front when its
 * Content-Length says so, else errored as soon as more has streamed in.
 */
export function capAnswers(send: Fetch, capBytes: number): Fetch {
  return async (input, init) => {
    const response = await send(input, init);
    if (!response.body) return response;
    if (Number(response.headers.get('content-length')) > capBytes) {
      await response.body.cancel().catch(() => undefined);
      throw new AnswerTooLarge(capBytes);
    }
    let seen = 0;
    const limited = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > capBytes) controller.error(new AnswerTooLarge(capBytes));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(limited, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** The global fetch, capped: what each SDK is given. */
export function cappedFetch(capBytes: number): Fetch {
  return capAnswers((input, init) => fetch(input, init), capBytes);
}

/** The AnswerTooLarge behind `err` (an SDK may wrap it), if that is what stopped the request. */
export function answerTooLarge(err: unknown): AnswerTooLarge | undefined {
  for (let cause = err, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof AnswerTooLarge) return cause;
  }
  return undefined;
}

/**
 * The generation's failure when `err` is an answer stopped at its cap (the provider's, and no retry
 * will shrink it); undefined for any other error.
 */
export function answerTooLargeFailure(provider: string, err: unknown): ProviderError | undefined {
  const tooLarge = answerTooLarge(err);
  if (!tooLarge) return undefined;
  return new ProviderError(
    PROVIDER_ERROR_CODES.tooLarge,
    `${provider}'s answer was larger than ${Math.round(tooLarge.capBytes / 1024 / 1024)} MB, more than its outputs may take under the size cap; it was not kept.`,
  );
}
