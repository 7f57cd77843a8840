import { failureFromElevenLabs, type RequestSignals } from './elevenlabs-failure';

// An ElevenLabs audio answer handed on as its body stream, never buffered: the gateway's ingest
// step reads it into storage under the size cap. What reading it runs into is classified like the
// request itself, and a clean-up (deleting a cloned voice) waits until the body has been read.

export interface RelayOptions {
  signals: RequestSignals;
  /** Ends the connection, for a reader that stops early (a pending read would hold it open). */
  release: () => void;
  after: () => Promise<void>;
}

/**
 * The body again, first chunk included, with read failures classified. `after` runs once, however
 * reading ends: at the end, on a failure, or when the reader stops early (`return`, which Node's
 * Readable.from calls on destroy, even before the first read).
 */
export function relay(first: Uint8Array, rest: AsyncIterator<Uint8Array>, { signals, release, after }: RelayOptions): AsyncIterable<Uint8Array> {
  let started = false;
  let ended = false;
  const end = async () => {
    if (ended) return;
    ended = true;
    await after();
  };
  const iterator: AsyncIterator<Uint8Array> = {
    async next() {
      if (ended) return { done: true, value: undefined };
      if (!started) {
        started = true;
        return { done: false, value: first };
      }
      try {
        const next = await rest.next();
        if (next.done) await end();
        return next;
      } catch (err) {
        await end();
        throw failureFromElevenLabs(err, signals);
      }
    },
    async return() {
      if (!ended) {
        release();
        await rest.return?.().catch(() => undefined);
        await end();
      }
      return { done: true, value: undefined };
    },
  };
  return { [Symbol.asyncIterator]: () => iterator };
}
