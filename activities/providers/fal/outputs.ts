import { badOutput, PROVIDER_ERROR_CODES } from '../http-failure';
import { ProviderError, type ProviderFile, type ProviderJob } from '../types';

// Where a finished fal request keeps its files. Every model answers with fal `File` objects
// (`{url, content_type, file_name, file_size}`) under keys that depend on the model family; the
// files are handed on as URLs (fal's expire), for the ingest step to stream into storage and check.

type Result = Record<string, unknown>;

const PROVIDER = 'fal';

/**
 * The keys, in order of preference, that hold one modality's main output. A 3D model may answer
 * with several meshes: the rigged one is what a rigged request asked for, then the textured one.
 */
const SINGLE_FILE_KEYS: Record<string, readonly string[]> = {
  video: ['video'],
  avatar: ['video'],
  music: ['audio', 'audio_file'],
  '3d': ['model_glb', 'model_mesh', 'pbr_model', 'base_model'],
  upscale: ['image'],
};

export function outputFiles(job: ProviderJob, data: unknown): ProviderFile[] {
  if (!isObject(data)) throw badOutput(PROVIDER, 'the result is not a JSON object');
  const modality = job.model.modality;
  if (modality === 'image' || (modality === 'upscale' && Array.isArray(data.images))) return imageFiles(data);
  const keys = SINGLE_FILE_KEYS[modality] ?? [];
  const preferred = modality === '3d' && job.params.rigged === true ? ['rigged_character_glb', ...keys] : keys;
  const key = preferred.find((name) => data[name] !== undefined && data[name] !== null);
  const fallback = modality === '3d' && isObject(data.model_urls) ? data.model_urls.glb : undefined;
  const file = key ? data[key] : fallback;
  if (file === undefined) throw badOutput(PROVIDER, `the result has no ${preferred.join(' or ')}`);
  return [asFile(file, key ?? 'model_urls.glb')];
}

/**
 * `images[]`, without those fal's safety checker flagged (it blacks them out rather than failing
 * the request): an answer whose every image is flagged is a content policy refusal.
 */
function imageFiles(data: Result): ProviderFile[] {
  if (!Array.isArray(data.images)) {
    if (data.image !== undefined) return [asFile(data.image, 'image')];
    throw badOutput(PROVIDER, 'the result has no images');
  }
  const flagged = Array.isArray(data.has_nsfw_concepts) ? data.has_nsfw_concepts : [];
  const kept = data.images.map((image, index) => ({ image, index })).filter(({ index }) => flagged[index] !== true);
  if (data.images.length > 0 && kept.length === 0) {
    throw new ProviderError(PROVIDER_ERROR_CODES.contentPolicy, `${PROVIDER}'s safety checker flagged every image it made for this prompt.`);
  }
  if (kept.length === 0) throw badOutput(PROVIDER, 'the result lists no images');
  return kept.map(({ image, index }) => asFile(image, `images[${index}]`));
}

function asFile(value: unknown, where: string): ProviderFile {
  const url = isObject(value) ? value.url : undefined;
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) throw badOutput(PROVIDER, `${where} has no http(s) URL`);
  const mime = isObject(value) && typeof value.content_type === 'string' && value.content_type ? value.content_type : undefined;
  return { kind: 'url', url, ...(mime && { mime }) };
}

function isObject(value: unknown): value is Result {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
