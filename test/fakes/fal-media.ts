import { renderAudio, renderImage, renderMesh, renderVideo } from '../../activities/providers/simulator-media';
import { listModels } from '../../domain/catalog';
import type { Modality } from '../../domain/modalities';

// What the fake fal answers a finished request with: each model family's result shape (as fal's
// model pages and the SDK's endpoint types document them), pointing at small real media files the
// fake serves itself. The files are rendered once per process, at runtime.

export interface MediaFile {
  data: Buffer;
  mime: string;
  extension: string;
}

/** A file the fake serves at `/files/<name>`; `paddedTo` pads it with zeros to that many bytes. */
export interface ServedFile extends MediaFile {
  paddedTo?: number;
}

type MediaKind = 'image' | 'video' | 'audio' | 'mesh';

const rendered = new Map<string, Promise<MediaFile>>();

/** A tiny real file of one kind (64x64 PNG, 1 s MP4 and MP3, a low-poly GLB), rendered once. */
export function media(kind: MediaKind, rigged = false): Promise<MediaFile> {
  const key = `${kind}:${rigged}`;
  let file = rendered.get(key);
  if (!file) {
    const seed = 'fake-fal';
    file = {
      image: () => renderImage({ width: 64, height: 64, seed, format: 'png' }),
      video: () => renderVideo({ durationS: 1, width: 64, height: 64, seed }),
      audio: () => renderAudio({ durationMs: 1_000, seed, format: 'mp3', kind: 'music' }),
      mesh: () => renderMesh({ seed, complexity: 'low', textureSize: 1024, rigged }),
    }[kind]();
    rendered.set(key, file);
  }
  return file;
}

/** The modality an endpoint serves: the catalog's, else a guess from its name. */
export function modalityOf(endpointId: string): Modality {
  const served = (id: string) => endpointId === id || endpointId.startsWith(`${id}/`);
  const model = listModels().find((m) => m.routes.some((route) => route.provider === 'fal' && served(route.model)));
  if (model) return model.modality;
  if (/lipsync|avatar|fabric/.test(endpointId)) return 'avatar';
  if (/video/.test(endpointId)) return 'video';
  if (/music|audio|lyria/.test(endpointId)) return 'music';
  if (/3d|trellis|rodin|tripo|meshy/.test(endpointId)) return '3d';
  if (/upscal|aura-sr/.test(endpointId)) return 'upscale';
  return 'image';
}

/** The kind of file each modality's main output is. */
export function mediaKindOf(modality: Modality): MediaKind {
  if (modality === 'video' || modality === 'avatar') return 'video';
  if (modality === 'music') return 'audio';
  if (modality === '3d') return 'mesh';
  return 'image';
}

/** A fal `File` object for a served file. */
export type FalFile = { url: string; content_type: string; file_name: string; file_size: number };

/**
 * A finished request's result: `file(kind)` serves one more file and returns its fal `File`.
 * `flagged` marks images as NSFW, as fal's safety checker does (`has_nsfw_concepts`): every image,
 * or those whose index is `true`.
 */
export async function resultFor(
  endpointId: string,
  input: Record<string, unknown>,
  file: (kind: MediaKind, rigged?: boolean) => Promise<FalFile>,
  opts: { flagged?: boolean | boolean[] } = {},
): Promise<Record<string, unknown>> {
  const modality = modalityOf(endpointId);
  const seed = typeof input.seed === 'number' ? input.seed : 42;
  switch (modality) {
    case 'image': {
      const count = typeof input.num_images === 'number' ? input.num_images : 1;
      const images = [];
      for (let i = 0; i < count; i++) images.push({ ...(await file('image')), width: 64, height: 64 });
      return {
        images,
        seed,
        has_nsfw_concepts: images.map((_, i) => (Array.isArray(opts.flagged) ? opts.flagged[i] === true : opts.flagged === true)),
        prompt: input.prompt,
        timings: { inference: 0.01 },
      };
    }
    case 'upscale':
      return { image: { ...(await file('image')), width: 64, height: 64 }, seed, timings: { inference: 0.01 } };
    case 'video':
    case 'avatar':
      return { video: await file('video'), seed };
    case 'music':
      return { audio: await file('audio') };
    case '3d': {
      if (!endpointId.includes('meshy')) return { model_mesh: await file('mesh'), seed };
      const glb = await file('mesh');
      const rigged = input.enable_rigging === true ? { rigged_character_glb: await file('mesh', true) } : {};
      return { model_glb: glb, model_urls: { glb }, prompt: input.prompt, seed, ...rigged };
    }
    default:
      throw new Error(`the fake fal serves no ${modality} endpoints`);
  }
}
