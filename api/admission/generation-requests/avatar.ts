import type { JobInput } from '../../../domain/job-input';
import type { KeyPrincipal } from '../../../db/repos/api-keys';
import { DEFAULT_AVATAR_ID, describeAvatarShapes, findStockAvatar, STOCK_AVATAR_IDS, takesAvatarShape, type AvatarShape, type StockAvatar } from '../../../domain/avatars';
import { speechDurationMs } from '../../../domain/media-durations';
import type { ModelEntry } from '../../../domain/catalog';
import { pricedJob } from '../../../domain/pricing';
import { firstFrameInput, stockPortraitInput } from '../avatar-portraits';
import type { ApiDeps } from '../../context';
import { ApiError } from '../../errors';
import { audioDurationMs, jobInput, optionalImageInput, type InputFetcher } from '../inputs';
import { requireWithinLimits, resolveModel } from '../resolve-model';
import { parseAvatarRequest, type AvatarRequest } from '../../schemas/avatars';
import type { GenerationRequest } from '../generation-request';

/**
 * An avatar request, decisions §10: text-to-avatar `{text, avatar_id?, voice_id?}` or lipsync
 * `{video_url, audio_url}`, never both; each model takes the bodies its capabilities name
 * (domain/avatars.ts). A model that animates a portrait (`animates_portrait`) gets one from
 * `image_url` (an extension), else for text the stock portrait of `avatar_id` (or `ava_default`),
 * for lipsync the first frame of `video_url`. Billed per second of output: the speech length of
 * the text (15 characters a second), or the length of the lipsync audio, which the output follows.
 */
export async function buildAvatarRequest(deps: ApiDeps, principal: KeyPrincipal, rawBody: unknown, fetchInput: InputFetcher): Promise<GenerationRequest> {
  const body = parseAvatarRequest(rawBody);
  const shape = shapeOf(body);
  const model = resolveModel(body.model, 'avatar', principal, deps.routing);
  if (!takesAvatarShape(model, shape)) {
    const asked = shape === 'text' ? 'text-to-avatar' : 'lipsync';
    throw new ApiError(
      'capability_not_supported',
      `Model '${model.slug}' takes no ${asked} requests; it takes ${describeAvatarShapes(model)}. GET /v1/models?modality=avatar shows each model's inputs.`,
      { param: 'model' },
    );
  }
  requirePortraitFits(model, body);
  const stockAvatar = body.avatar_id === undefined ? undefined : knownStockAvatar(body.avatar_id);

  let durationMs: number;
  const inputs: Record<string, JobInput> = {};
  if (shape === 'lipsync') {
    // image_url reached here only on a portrait model (requirePortraitFits).
    const portraitUrl = body.image_url;
    if (body.audio_url === undefined || (body.video_url === undefined && portraitUrl === undefined)) {
      const param = body.audio_url === undefined ? 'audio_url' : 'video_url';
      throw new ApiError('validation_failed', `Missing required parameter: ${param} (lipsync needs video_url and audio_url).`, { param });
    }
    const audio = await fetchInput(body.audio_url, 'audio', 'audio_url');
    durationMs = await audioDurationMs(audio, 'audio_url');
    // The output lasts as long as the audio: both limits are the audio's.
    requireWithinLimits(model, { audioS: durationMs / 1000, durationS: durationMs / 1000 }, { durationS: 'audio_url' });
    inputs.audio = jobInput(audio);
    if (portraitUrl) Object.assign(inputs, await optionalImageInput(fetchInput, portraitUrl));
    else {
      const video = await fetchInput(body.video_url!, 'video', 'video_url');
      if (model.animatesPortrait) inputs.image = await firstFrameInput(deps.storage, principal, video);
      else inputs.video = jobInput(video);
    }
  } else {
    const text = body.text!;
    durationMs = speechDurationMs(text);
    requireWithinLimits(model, { textChars: text.length, durationS: durationMs / 1000 }, { durationS: 'text' });
    if (body.image_url) Object.assign(inputs, await optionalImageInput(fetchInput, body.image_url));
    else if (model.animatesPortrait) inputs.image = await stockPortraitInput(deps.storage, stockAvatar ?? findStockAvatar(DEFAULT_AVATAR_ID)!);
  }

  const { model: _slug, ...params } = body;
  return {
    model,
    prompt: body.text ?? '',
    params: { ...params, mode: shape === 'lipsync' ? 'lipsync' : 'text_to_avatar' },
    ...pricedJob(model, { durationMs }, principal.plan),
    ...(Object.keys(inputs).length > 0 && { inputs }),
  };
}

/** Which body this is: the text fields or the lipsync ones, never both, never neither. */
function shapeOf(body: AvatarRequest): AvatarShape {
  const textShape = body.text !== undefined || body.avatar_id !== undefined || body.voice_id !== undefined;
  const lipsyncShape = body.video_url !== undefined || body.audio_url !== undefined;
  if (textShape && lipsyncShape) {
    throw new ApiError('validation_failed', 'Send either text (with avatar_id, voice_id) or video_url with audio_url, not both.', {
      param: body.text !== undefined ? 'video_url' : 'text',
    });
  }
  if (lipsyncShape) return 'lipsync';
  if (body.text === undefined) {
    throw new ApiError('validation_failed', 'Missing required parameter: text (or video_url and audio_url for lipsync).', { param: 'text' });
  }
  return 'text';
}

function knownStockAvatar(id: string): StockAvatar {
  const avatar = findStockAvatar(id);
  if (avatar) return avatar;
  throw new ApiError(
    'validation_failed',
    `Unknown avatar_id '${id}'. The stock avatars are ${STOCK_AVATAR_IDS.join(', ')} (docs/api.md, "Avatars"); omit avatar_id for ${DEFAULT_AVATAR_ID}.`,
    { param: 'avatar_id' },
  );
}

/**
 * `image_url`, a portrait photo, goes to the models that animate one, in place of the stock
 * avatar (text) or of the video's first frame (lipsync); it is one portrait or the other.
 */
function requirePortraitFits(model: ModelEntry, body: AvatarRequest): void {
  if (body.image_url === undefined) return;
  if (!model.animatesPortrait) {
    throw new ApiError(
      'capability_not_supported',
      `Model '${model.slug}' does not animate a portrait photo, so it takes no image_url. GET /v1/models?modality=avatar lists the models that do (inputs include "image_url").`,
      { param: 'image_url' },
    );
  }
  const other = body.video_url !== undefined ? 'video_url' : body.avatar_id !== undefined ? 'avatar_id' : undefined;
  if (other) {
    throw new ApiError('validation_failed', `${model.name} animates one portrait: the photo in image_url or the one ${other} gives, not both.`, { param: other });
  }
}
