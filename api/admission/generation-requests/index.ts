import type { KeyPrincipal } from '../../../db/repos/api-keys';
import type { Modality } from '../../../domain/modalities';
import type { ApiDeps } from '../../context';
import type { InputFetcher } from '../inputs';
import type { GenerationRequest } from '../generation-request';
import { buildAvatarRequest } from './avatar';
import { buildChatRequest } from './chat';
import { buildImageRequest } from './image';
import { buildMusicRequest } from './music';
import { buildThreeDRequest } from './three-d';
import { buildUpscaleRequest } from './upscale';
import { buildVideoRequest } from './video';
import { buildVoiceRequest } from './voice';

/**
 * Turns one creation request body into the generation to start: parses it with the modality's
 * schema, resolves the model, checks capabilities and limits, fetches input files through
 * `fetchInput`, and prices it. Throws the ApiError the endpoint answers with, before anything is
 * reserved. A comparison runs the same builder once per model, so each model gets exactly the
 * checks and price its own endpoint would give it.
 */
export type RequestBuilder = (deps: ApiDeps, principal: KeyPrincipal, rawBody: unknown, fetchInput: InputFetcher) => Promise<GenerationRequest>;

export const REQUEST_BUILDERS: Record<Modality, RequestBuilder> = {
  image: buildImageRequest,
  video: buildVideoRequest,
  voice: buildVoiceRequest,
  music: buildMusicRequest,
  avatar: buildAvatarRequest,
  chat: buildChatRequest,
  '3d': buildThreeDRequest,
  upscale: buildUpscaleRequest,
};
