import { ASPECT_RATIOS, DEFAULT_ASPECT_RATIO, imageSize, type AspectRatio } from '../../../domain/image-sizes';
import { defaultVideoDurationS, MUSIC_DURATION_S } from '../../../domain/media-durations';
import { PROVIDER_ERROR_CODES } from '../http-failure';
import { ProviderError, type ProviderContext, type ProviderJob } from '../types';
import {
  defaultImageInput,
  defaultLipsyncInput,
  defaultMusicInput,
  defaultTextAvatarInput,
  defaultThreeDInput,
  defaultVideoInput,
  IMAGE_INPUTS,
  INPUT_IMAGE_ENDPOINTS,
  LIPSYNC_ENDPOINTS,
  LIPSYNC_INPUTS,
  MUSIC_INPUTS,
  TEXT_AVATAR_INPUTS,
  THREE_D_INPUTS,
  upscaleInput,
  VIDEO_INPUTS,
  type FalInput,
  type ThreeDAsk,
} from './model-inputs';

// What one job asks fal for: the endpoint to submit to and its input. Our parameters (built by the
// API's request builders) are read once here; input files go by signed URL (`ctx.inputUrl`), which
// fal fetches itself. The user's own URLs in `params` are never passed on: only the copies the API
// fetched, checked and stored.

export interface FalRequest {
  /** The model's endpoint id, `owner/app[/path]`; status, result and cancel use `owner/app`. */
  endpointId: string;
  input: FalInput;
}

export async function falRequest(job: ProviderJob, ctx: ProviderContext): Promise<FalRequest> {
  const model = job.route.model;
  if (model.split('/').filter(Boolean).length < 2) {
    throw routeProblem(`the fal route model "${model}" is not a fal endpoint id (owner/app[/path])`);
  }
  const p = job.params;
  const seed = integer(p.seed);
  const inputUrl = (name: string) => (job.inputs[name] ? ctx.inputUrl(name) : Promise.resolve(undefined));

  switch (job.model.modality) {
    case 'image': {
      const aspectRatio = knownAspectRatio(p.aspect_ratio);
      const imageUrl = await inputUrl('image');
      const ask = {
        prompt: job.prompt,
        aspectRatio,
        ...imageSize(aspectRatio),
        count: integer(p.num_outputs) ?? 1,
        seed,
        negativePrompt: text(p.negative_prompt),
        imageUrl,
      };
      return { endpointId: endpointFor(model, imageUrl), input: compact((IMAGE_INPUTS[model] ?? defaultImageInput)(ask)) };
    }
    case 'video': {
      const imageUrl = await inputUrl('image');
      const ask = { prompt: job.prompt, durationS: integer(p.duration_s) ?? defaultVideoDurationS(job.model), aspectRatio: text(p.aspect_ratio), seed, imageUrl };
      return { endpointId: endpointFor(model, imageUrl), input: compact((VIDEO_INPUTS[model] ?? defaultVideoInput)(ask)) };
    }
    case 'music': {
      const ask = { prompt: job.prompt, durationS: integer(p.duration_s) ?? MUSIC_DURATION_S.default, withVocals: p.with_vocals === true, seed };
      return { endpointId: model, input: compact((MUSIC_INPUTS[model] ?? defaultMusicInput)(ask)) };
    }
    case 'avatar': {
      const portraitUrl = await inputUrl('image');
      if (p.mode === 'lipsync') {
        // A portrait model's text endpoint has a sibling that animates the portrait to an audio.
        const endpointId = LIPSYNC_ENDPOINTS[model] ?? model;
        const [videoUrl, audioUrl] = await Promise.all([inputUrl('video'), ctx.inputUrl('audio')]);
        return { endpointId, input: compact((LIPSYNC_INPUTS[endpointId] ?? defaultLipsyncInput)({ videoUrl, audioUrl, seed, portraitUrl })) };
      }
      const ask = { text: text(p.text) ?? job.prompt, avatarId: text(p.avatar_id), voiceId: text(p.voice_id), seed, portraitUrl };
      return { endpointId: model, input: compact((TEXT_AVATAR_INPUTS[model] ?? defaultTextAvatarInput)(ask)) };
    }
    case '3d': {
      const complexity: ThreeDAsk['complexity'] = p.mesh_complexity === 'low' || p.mesh_complexity === 'high' ? p.mesh_complexity : 'medium';
      const ask = {
        prompt: job.prompt,
        imageUrl: await inputUrl('image'),
        textureSize: Number(p.texture_size ?? 1024),
        complexity,
        rigged: p.rigged === true,
        seed,
      };
      return { endpointId: model, input: compact((THREE_D_INPUTS[model] ?? defaultThreeDInput)(ask)) };
    }
    case 'upscale':
      return { endpointId: model, input: upscaleInput({ imageUrl: await ctx.inputUrl('image'), scale: Number(p.scale_factor ?? 2) }) };
    default:
      throw routeProblem(`fal serves no ${job.model.modality} models in this gateway; check the routes of ${job.model.slug}`);
  }
}

/** A request with an input image goes to the model's image endpoint, where it has one. */
function endpointFor(model: string, imageUrl: string | undefined): string {
  return (imageUrl && INPUT_IMAGE_ENDPOINTS[model]) || model;
}

function knownAspectRatio(value: unknown): AspectRatio {
  return (ASPECT_RATIOS as readonly unknown[]).includes(value) ? (value as AspectRatio) : DEFAULT_ASPECT_RATIO;
}

const integer = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) ? value : undefined);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Drops absent optional fields, so fal applies its own defaults. */
function compact(input: FalInput): FalInput {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
}

function routeProblem(message: string): ProviderError {
  return new ProviderError(PROVIDER_ERROR_CODES.rejected, `${message}.`, false, { source: 'gateway' });
}
