import { idempotencyHeaders, unwrap, type Api, type RequestOptions } from '../request.js';
import type { ChatCompletion, Generation, RequestBody } from '../types.js';

// One `create` per modality (`client.images.create({ model, prompt })`), each typed by its
// operation's request body in the document. The answer is the generation (or, for a synchronous
// chat, the completion); `client.generations.wait(id)` follows an asynchronous one to its end.

type CreatePath = '/v1/images' | '/v1/videos' | '/v1/voice' | '/v1/music' | '/v1/avatars' | '/v1/three-d' | '/v1/upscale' | '/v1/chat';

export interface ModalityResource<P extends CreatePath, R> {
  create(body: RequestBody<P, 'post'>, options?: RequestOptions): Promise<R>;
}

function modality<P extends CreatePath, R = Generation>(api: Api, path: P): ModalityResource<P, R> {
  return {
    // The generic path defeats openapi-fetch's per-path inference; the body is typed by P above.
    create: (body, options) => unwrap<R>(api.POST(path as '/v1/images', { body: body as RequestBody<'/v1/images', 'post'>, headers: idempotencyHeaders(options) }) as never),
  };
}

export function modalityResources(api: Api) {
  return {
    images: modality(api, '/v1/images'),
    videos: modality(api, '/v1/videos'),
    voice: modality(api, '/v1/voice'),
    music: modality(api, '/v1/music'),
    avatars: modality(api, '/v1/avatars'),
    threeD: modality(api, '/v1/three-d'),
    upscale: modality(api, '/v1/upscale'),
    chat: modality<'/v1/chat', ChatCompletion | Generation>(api, '/v1/chat'),
  };
}
