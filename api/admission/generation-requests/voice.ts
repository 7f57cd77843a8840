import type { KeyPrincipal } from '../../../db/repos/api-keys';
import { pricedJob } from '../../../domain/pricing';
import { REQUEST_MEASURES } from '../../../domain/request-measures';
import type { ApiDeps } from '../../context';
import { ApiError } from '../../errors';
import { audioDurationMs, jobInput, type InputFetcher } from '../inputs';
import { requireCapability, requireWithinLimits, resolveModel } from '../resolve-model';
import { parseVoiceRequest, type VoiceOperation } from '../../schemas/voice';
import type { GenerationRequest } from '../generation-request';

const CAPABILITY = { tts: 'text_to_voice', voice_clone: 'voice_clone', transcription: 'transcription' } as const;

const missing = (param: string, operation: VoiceOperation) =>
  new ApiError('validation_failed', `Missing required parameter: ${param} (operation ${operation} needs it).`, { param });

/**
 * A voice request, decisions §10: `tts` (default) speaks `text`; `voice_clone` speaks `text` in the
 * voice of the `audio_url` sample; `transcription` writes down `audio_url`. TTS and cloning are
 * priced per 1k characters, transcription per minute of audio.
 */
export async function buildVoiceRequest(deps: ApiDeps, principal: KeyPrincipal, rawBody: unknown, fetchInput: InputFetcher): Promise<GenerationRequest> {
  const body = parseVoiceRequest(rawBody);
  const operation = body.operation ?? 'tts';
  const model = resolveModel(body.model, 'voice', principal, deps.routing);
  requireCapability(model, CAPABILITY[operation], 'operation');

  if (operation === 'transcription') {
    if (body.text !== undefined) throw new ApiError('validation_failed', 'A transcription takes audio_url, not text.', { param: 'text' });
    if (!body.audio_url) throw missing('audio_url', operation);
  } else {
    if (!body.text) throw missing('text', operation);
    if (operation === 'voice_clone' && !body.audio_url) throw missing('audio_url', operation);
    if (operation === 'tts' && body.audio_url)
      throw new ApiError('validation_failed', 'Text-to-speech takes no audio_url; use operation voice_clone to speak in the voice of a sample.', { param: 'audio_url' });
    requireWithinLimits(model, { textChars: body.text.length });
  }
  const audio = body.audio_url ? await fetchInput(body.audio_url, 'audio', 'audio_url') : undefined;
  const audioMs = audio ? await audioDurationMs(audio, 'audio_url') : 0;
  if (audio) requireWithinLimits(model, { audioS: audioMs / 1000 });

  const { model: _slug, text, ...rest } = body;
  return {
    model,
    prompt: text ?? '',
    params: { ...rest, operation, ...(text !== undefined && { text }) },
    ...pricedJob(model, operation === 'transcription' ? REQUEST_MEASURES.transcription(audioMs) : REQUEST_MEASURES.speech(text ?? ''), principal.plan),
    ...(audio && { inputs: { audio: jobInput(audio) } }),
  };
}
