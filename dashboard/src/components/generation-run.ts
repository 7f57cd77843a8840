import { useEffect, useRef, useState } from 'preact/hooks';
import { isTerminal } from '../../../domain/generation-status';
import type { Modality } from '../../../domain/modalities';
import type { Api, Schemas } from '../api';

// Sending one creation request with the TypeScript client and following it to its end: a sync
// model answers with the finished generation (a chat with its completion), an async one with 202
// and a queued generation, polled with GET /v1/generations/<id> so the page shows its status as
// it moves. Leaving the page stops the polling.

type Generation = Schemas['Generation'];

export type Run =
  | { phase: 'idle' }
  | { phase: 'sending' }
  | { phase: 'following'; generation: Generation }
  | { phase: 'done'; generation: Generation }
  | { phase: 'refused'; error: unknown }
  /** Made, but reading it back failed: its page has it. */
  | { phase: 'unseen'; id: string; error: unknown };

/** The client's create for a modality (the body was built from the API's schema by request-form.tsx). */
function create(api: Api, modality: Modality, body: Record<string, unknown>): Promise<{ id: string; object: string; status: string }> {
  const b = body as never;
  switch (modality) {
    case 'image':
      return api.images.create(b);
    case 'video':
      return api.videos.create(b);
    case 'voice':
      return api.voice.create(b);
    case 'music':
      return api.music.create(b);
    case 'avatar':
      return api.avatars.create(b);
    case 'chat':
      return api.chat.create(b);
    case '3d':
      return api.threeD.create(b);
    case 'upscale':
      return api.upscale.create(b);
  }
}

const POLL_MS = 1000;

export function useGenerationRun(api: Api): { run: Run; send(modality: Modality, body: Record<string, unknown>): Promise<void>; reset(): void } {
  const [run, setRun] = useState<Run>({ phase: 'idle' });
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
    },
    [],
  );

  const send = async (modality: Modality, body: Record<string, unknown>) => {
    setRun({ phase: 'sending' });
    let answer: { id: string; object: string; status: string };
    try {
      answer = await create(api, modality, body);
    } catch (error) {
      if (alive.current) setRun({ phase: 'refused', error });
      return;
    }
    let generation: Generation;
    try {
      // A chat completion is the finished chat in another shape: the generation has it all.
      generation = answer.object === 'generation' ? (answer as Generation) : await api.generations.get(answer.id);
    } catch (error) {
      if (alive.current) setRun({ phase: 'unseen', id: answer.id, error });
      return;
    }
    while (alive.current && !isTerminal(generation.status)) {
      setRun({ phase: 'following', generation });
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      try {
        generation = await api.generations.get(generation.id);
      } catch {
        // A poll that failed (the network blinked) is tried again; the job runs on regardless.
      }
    }
    if (alive.current) setRun({ phase: 'done', generation });
  };

  return { run, send, reset: () => setRun({ phase: 'idle' }) };
}
