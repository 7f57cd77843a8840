import { estimateCredits } from '../../domain/pricing';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { ApiError } from '../errors';
import { audioDurationMs, fetchAndStoreInput, jobInput } from '../inputs';
import { principalOf } from '../middleware/authenticate';
import { requireCapability, requireWithinLimits, resolveModel } from '../resolve-model';
import { ROUTES } from '../route-table';
import { parseVoiceRequest, type VoiceOperation } from '../schemas/voice';
import { respondWithGeneration } from '../start-generation';

const CAPABILITY = { tts: 'text_to_voice', voice_clone: 'voice_clone', transcription: 'transcription' } as const;

const missing = (param: string, operation: VoiceOperation) =>
  new ApiError('validation_failed', `Missing required parameter: ${param} (operation ${operation} needs it).`, { param });

/**
 * POST /v1/voice (sync, 200), decisions §10: `tts` (default) speaks `text`; `voice_clone` speaks
 * `text` in the voice of the `audio_url` sample; `transcription` writes down `audio_url`.
 * TTS and cloning are priced per 1k characters, transcription per minute of audio.
 */
export function registerVoiceRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.createVoice, async (ctx) => {
    const principal = principalOf(ctx);
    const body = parseVoiceRequest(ctx.state.body);
    const operation = body.operation ?? 'tts';
    const model = resolveModel(body.model, 'voice', principal, deps.routing);
    requireCapability(model, CAPABILITY[operation], 'operation');

    if (operation === 'transcription') {
      if (body.text !== undefined) throw new ApiError('validation_failed', 'A transcription takes audio_url, not text.', { param: 'text' });
      if (!body.audio_url) throw missing('audio_url', operation);
    } else {
      if (!body.text) throw missing('text', operation);
      if (operation === 'voice_clone' && !body.audio_url) throw missing('audio_url', operation);
      if (operation === 'tts' && body.audio_url) throw new ApiError('validation_failed', 'Text-to-speech takes no audio_url; use operation voice_clone to speak in the voice of a sample.', { param: 'audio_url' });
      requireWithinLimits(model, { textChars: body.text.length });
    }
    const audio = body.audio_url ? await fetchAndStoreInput(deps, principal, body.audio_url, 'audio', 'audio_url') : undefined;
    const audioMs = audio ? await audioDurationMs(audio, 'audio_url') : 0;
    if (audio) requireWithinLimits(model, { audioS: audioMs / 1000 });

    const { model: _slug, text, ...rest } = body;
    await respondWithGeneration(ctx, deps, principal, {
      model,
      prompt: text ?? '',
      params: { ...rest, operation, ...(text !== undefined && { text }) },
      estimatedCredits: estimateCredits(model, operation === 'transcription' ? { durationMs: audioMs } : { characters: text?.length ?? 0 }, principal.plan),
      ...(audio && { inputs: { audio: jobInput(audio) } }),
    });
  });
}
