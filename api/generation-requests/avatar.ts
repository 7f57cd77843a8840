import type { JobInput } from '../../activities/providers/types';
import type { KeyPrincipal } from '../../db/repos/api-keys';
import { speechDurationMs } from '../../domain/media-durations';
import type { ModelEntry } from '../../domain/catalog';
import { estimateCredits } from '../../domain/pricing';
import type { ApiDeps } from '../context';
import { ApiError } from '../errors';
import { audioDurationMs, jobInput, optionalImageInput, type InputFetcher } from '../inputs';
import { requireCapability, requireWithinLimits, resolveModel } from '../resolve-model';
import { parseAvatarRequest, type AvatarRequest } from '../schemas/avatars';
import type { GenerationRequest } from '../start-generation';

/**
 * An avatar request, decisions §10: text-to-avatar `{text, avatar_id?, voice_id?}` or lipsync
 * `{video_url, audio_url}`, never both. A model that animates a portrait photo (`animates_portrait`
 * in the catalog) takes it as `image_url`: with the text, or in place of the lipsync video. Billed
 * per second of output: the speech length of the text (15 characters a second), or the length of
 * the lipsync audio.
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
  // A portrait model's lipsync takes image_url instead of video_url (checked against the model below).
  if (lipsyncShape && (!body.audio_url || (!body.video_url && !body.image_url))) {
    const param = body.audio_url ? 'video_url' : 'audio_url';
    throw new ApiError('validation_failed', `Missing required parameter: ${param} (lipsync needs video_url and audio_url).`, { param });
  }
  const model = resolveModel(body.model, 'avatar', principal, deps.routing);
  requireCapability(model, lipsyncShape ? 'lipsync' : 'text_to_video', 'model');

  let durationMs: number;
  const inputs: Record<string, JobInput> = {};
  if (lipsyncShape) {
    requirePortraitFits(model, body);
    if (body.video_url) inputs.video = jobInput(await fetchInput(body.video_url, 'video', 'video_url'));
    const audio = await fetchInput(body.audio_url!, 'audio', 'audio_url');
    durationMs = await audioDurationMs(audio, 'audio_url');
    // The output lasts as long as the audio: both limits are the audio's.
    requireWithinLimits(model, { audioS: durationMs / 1000, durationS: durationMs / 1000 }, { durationS: 'audio_url' });
    inputs.audio = jobInput(audio);
  } else {
    const text = body.text!;
    durationMs = speechDurationMs(text);
    requireWithinLimits(model, { textChars: text.length, durationS: durationMs / 1000 }, { durationS: 'text' });
    requirePortraitFits(model, body);
  }
  if (body.image_url) Object.assign(inputs, await optionalImageInput(fetchInput, body.image_url));

  const { model: _slug, ...params } = body;
  return {
    model,
    prompt: body.text ?? '',
    params: { ...params, mode: lipsyncShape ? 'lipsync' : 'text_to_avatar' },
    estimatedCredits: estimateCredits(model, { durationMs }, principal.plan),
    ...(Object.keys(inputs).length > 0 && { inputs }),
  };
}

/**
 * A portrait model needs its photo, and animates nothing else (no stock avatar, no video); any other
 * avatar model has no use for a photo.
 */
function requirePortraitFits(model: ModelEntry, body: AvatarRequest): void {
  if (!model.animatesPortrait) {
    if (body.image_url === undefined) return;
    throw new ApiError(
      'capability_not_supported',
      `Model '${model.slug}' does not animate a portrait photo, so it takes no image_url. GET /v1/models?modality=avatar lists the models that do (animates_portrait: true).`,
      { param: 'image_url' },
    );
  }
  if (body.image_url === undefined) {
    throw new ApiError('validation_failed', `Missing required parameter: image_url (${model.name} animates a portrait photo).`, { param: 'image_url' });
  }
  const other = body.video_url !== undefined ? 'video_url' : body.avatar_id !== undefined ? 'avatar_id' : undefined;
  if (other) {
    throw new ApiError('validation_failed', `${model.name} animates the portrait photo in image_url; it takes no ${other}.`, { param: other });
  }
}
