import { PROVIDER_ERROR_CODES } from './http-failure';
import { ProviderError, type ProviderContext, type ProviderJob } from './types';

// What to send Replicate for a job: which model (an official model by name, or a community model's
// pinned version) and the model's own input fields, mapped from the gateway's params. Each model
// documents its inputs on its API page; a model not listed here gets the common names (`prompt`,
// `aspect_ratio`, `image`, `scale`, ...), which most Replicate models share.

/** An official model is run by name; a community model needs a version id (`owner/name:version`). */
export type PredictionTarget = { model: string } | { version: string };

export interface PredictionPlan {
  target: PredictionTarget;
  /** One entry per prediction: a model that makes one image per run is run once per output. */
  inputs: Record<string, unknown>[];
}

type Input = Record<string, unknown>;
type InputBuilder = (job: ProviderJob, ctx: ProviderContext) => Promise<Input[]>;

const ROUTE = /^([\w.-]+\/[\w.-]+)(?::([0-9a-zA-Z]+))?$/;

export async function planPredictions(job: ProviderJob, ctx: ProviderContext): Promise<PredictionPlan> {
  const match = ROUTE.exec(job.route.model);
  if (!match) {
    throw new ProviderError(
      PROVIDER_ERROR_CODES.rejected,
      `The Replicate route "${job.route.model}" is not a model id: use owner/name for an official model or owner/name:version for a community model.`,
      false,
      { source: 'gateway' },
    );
  }
  const name = match[1]!;
  const version = match[2];
  const build = MODEL_INPUTS[name] ?? COMMON_INPUTS[job.model.modality];
  if (!build) {
    throw new ProviderError(PROVIDER_ERROR_CODES.rejected, `The Replicate adapter does not serve ${job.model.modality} models.`, false, { source: 'gateway' });
  }
  return { target: version ? { version } : { model: name }, inputs: await build(job, ctx) };
}

/** A number param; upscale's `scale_factor` arrives as a string ("2"), as the API takes it. */
const numberParam = (job: ProviderJob, name: string): number | undefined => {
  const value = job.params[name];
  if (typeof value === 'number') return value;
  const parsed = typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(parsed) ? parsed : undefined;
};
const stringParam = (job: ProviderJob, name: string): string | undefined => {
  const value = job.params[name];
  return typeof value === 'string' ? value : undefined;
};
const outputsWanted = (job: ProviderJob): number => numberParam(job, 'num_outputs') ?? 1;
const seedOf = (job: ProviderJob, offset = 0): Input => {
  const seed = numberParam(job, 'seed');
  return seed === undefined ? {} : { seed: seed + offset };
};
/** The signed URL of an input, under the model's own field name, when the job has that input. */
const inputFile = async (job: ProviderJob, ctx: ProviderContext, input: string, field: string): Promise<Input> => (job.inputs[input] ? { [field]: await ctx.inputUrl(input) } : {});

/** FLUX schnell/dev: several images per run; PNG, since their default (WebP) is not what callers expect. */
const fluxMany: InputBuilder = async (job, ctx) => [
  {
    prompt: job.prompt,
    aspect_ratio: stringParam(job, 'aspect_ratio') ?? '1:1',
    num_outputs: outputsWanted(job),
    output_format: 'png',
    ...seedOf(job),
    ...(await inputFile(job, ctx, 'image', 'image')),
  },
];

/** A model that makes one image per run (FLUX1.1 [pro], Imagen 4): one run per output, seeds apart. */
const onePerRun =
  (opts: { seeded: boolean }): InputBuilder =>
  async (job) =>
    Array.from({ length: outputsWanted(job) }, (_, i) => ({
      prompt: job.prompt,
      aspect_ratio: stringParam(job, 'aspect_ratio') ?? '1:1',
      output_format: 'png',
      ...(opts.seeded && seedOf(job, i)),
    }));

const scaleOf = (job: ProviderJob): number => numberParam(job, 'scale_factor') ?? 2;
const faceEnhance = (job: ProviderJob): boolean => job.params.face_enhance === true;

/** Veo 3 (and the common video names): `duration` in seconds, `image` as the first frame. */
const video: InputBuilder = async (job, ctx) => {
  const duration = numberParam(job, 'duration_s');
  const aspectRatio = stringParam(job, 'aspect_ratio');
  return [
    {
      prompt: job.prompt,
      ...(aspectRatio && { aspect_ratio: aspectRatio }),
      ...(duration !== undefined && { duration }),
      ...seedOf(job),
      ...(await inputFile(job, ctx, 'image', 'image')),
    },
  ];
};

const commonImage: InputBuilder = async (job, ctx) => [
  {
    prompt: job.prompt,
    aspect_ratio: stringParam(job, 'aspect_ratio') ?? '1:1',
    num_outputs: outputsWanted(job),
    ...(stringParam(job, 'negative_prompt') && { negative_prompt: stringParam(job, 'negative_prompt') }),
    ...seedOf(job),
    ...(await inputFile(job, ctx, 'image', 'image')),
  },
];

const commonUpscale: InputBuilder = async (job, ctx) => [{ ...(await inputFile(job, ctx, 'image', 'image')), scale: scaleOf(job), face_enhance: faceEnhance(job) }];

const MODEL_INPUTS: Record<string, InputBuilder> = {
  'black-forest-labs/flux-schnell': fluxMany,
  'black-forest-labs/flux-dev': fluxMany,
  'black-forest-labs/flux-1.1-pro': onePerRun({ seeded: true }),
  // Imagen 4 takes no seed.
  'google/imagen-4': onePerRun({ seeded: false }),
  'google/imagen-4-fast': onePerRun({ seeded: false }),
  'google/veo-3': video,
  'google/veo-3-fast': video,
  'nightmareai/real-esrgan': commonUpscale,
  // CodeFormer always restores faces; `face_upsample` also upscales them, `background_enhance`
  // upscales the rest of the picture (Real-ESRGAN), which an upscale needs.
  'sczhou/codeformer': async (job, ctx) => [{ ...(await inputFile(job, ctx, 'image', 'image')), upscale: scaleOf(job), face_upsample: faceEnhance(job), background_enhance: true }],
  // GFPGAN always restores faces; its input is `img`.
  'tencentarc/gfpgan': async (job, ctx) => [{ ...(await inputFile(job, ctx, 'image', 'img')), scale: scaleOf(job) }],
};

const COMMON_INPUTS: Partial<Record<ProviderJob['model']['modality'], InputBuilder>> = {
  image: commonImage,
  upscale: commonUpscale,
  video,
};
