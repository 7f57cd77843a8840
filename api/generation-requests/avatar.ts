import type { JobInput } from '../../activities/providers/types';
import type { KeyPrincipal } from '../../db/repos/api-keys';
import { speechDurationMs } from '../../domain/media-durations';
import { estimateCredits } from '../../domain/pricing';
import type { ApiDeps } from '../context';
import { ApiError } from '../errors';
import { audioDurationMs, jobInput, type InputFetcher } from '../inputs';
import { requireCapability, requireWithinLimits, resolveModel } from '../resolve-model';
import { parseAvatarRequest } from '../schemas/avatars';
import type { GenerationRequest } from '../start-generation';

/**
 * An avatar request, decisions §10: text-to-avatar `{text, avatar_id?, voice_id?}` or lipsync
 * `{video_url, audio_url}`, never both. Billed per second of output: the speech length of the text
 * (15 characters a second), or the length of the lipsync audio.
 */
export async function buildAvatarRequest(deps: ApiDeps, principal: KeyPrincipal, rawBody: unknown, fetchInput: InputFetcher): Promise<GenerationRequest> {
  const body = parseAvatarRequest(rawBody);
  const textShape = body.text !== undefined || body.avatar_id !== undefined || body.voice_id !== undefined;
  const lipsyncShape = body.video_url !== undefined || body.audio_url !== undefined;
  if (textShape && lipsyncShape) {
    throw new ApiError('validation_failed', 'Send either text (with avatar_id, voice_id) or video_url with audio_url, not both.', {
      param: body.text !== undefined ? 'video_url' : 'text',
    });
  }
  if (!lipsyncShape && body.text === undefined) {
    throw new ApiError('validation_failed', 'Missing required parameter: text (or video_url and audio_url for lipsync).', { param: 'text' });
  }
  if (lipsyncShape && (!body.video_url || !body.audio_url)) {
    const param = body.video_url ? 'audio_url' : 'video_url';
    throw new ApiError('validation_failed', `Missing required parameter: ${param} (lipsync needs video_url and audio_url).`, { param });
  }
  const model = resolveModel(body.model, 'avatar', principal, deps.routing);
  requireCapability(model, lipsyncShape ? 'lipsync' : 'text_to_video', 'model');

  let durationMs: number;
  let inputs: Record<string, JobInput> | undefined;
  if (lipsyncShape) {
    const video = await fetchInput(body.video_url!, 'video', 'video_url');
    const audio = await fetchInput(body.audio_url!, 'audio', 'audio_url');
    durationMs = await audioDurationMs(audio, 'audio_url');
    // The output lasts as long as the audio: both limits are the audio's.
    requireWithinLimits(model, { audioS: durationMs / 1000, durationS: durationMs / 1000 }, { durationS: 'audio_url' });
    inputs = { video: jobInput(video), audio: jobInput(audio) };
  } else {
    const text = body.text!;
    durationMs = speechDurationMs(text);
    requireWithinLimits(model, { textChars: text.length, durationS: durationMs / 1000 }, { durationS: 'text' });
  }

  const { model: _slug, ...params } = body;
  return {
    model,
    prompt: body.text ?? '',
    params: { ...params, mode: lipsyncShape ? 'lipsync' : 'text_to_avatar' },
    estimatedCredits: estimateCredits(model, { durationMs }, principal.plan),
    ...(inputs && { inputs }),
  };
}
