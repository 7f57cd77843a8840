import sharp from 'sharp';
import type { ProviderAdapter, ProviderContext, ProviderJob, ProviderResult, SubmitResult } from '../../activities/providers/types';
import { findModel } from '../../domain/catalog';
import { OUTPUT_SIZE_CAPS } from '../../domain/output-limits';
import { waitFor } from '../helpers/http';
import type { FakeReplicate } from './replicate-server';

// Jobs for the Replicate adapter's tests, built from real catalog entries with a route and
// credentials that point at the fake, and the plain context an activity would pass.

/** The routes the catalog would list for these models on Replicate (community models pin a version). */
export const REPLICATE_ROUTES = {
  'flux-schnell': 'black-forest-labs/flux-schnell',
  'flux-dev': 'black-forest-labs/flux-dev',
  'flux-1.1-pro': 'black-forest-labs/flux-1.1-pro',
  'imagen-4': 'google/imagen-4',
  'imagen-4-fast': 'google/imagen-4-fast',
  'veo-3': 'google/veo-3',
  'veo-3-fast': 'google/veo-3-fast',
  'real-esrgan': 'nightmareai/real-esrgan:f121d640bd286e1fdc67f9799164c1d5be36ff74576ee11c803ae5b665dd46aa',
  codeformer: 'sczhou/codeformer:cc4956dd26fa5a7185d5660cc9100fab1b8070a1d1654a8bb5eb6d443b020bb2',
  gfpgan: 'tencentarc/gfpgan:0fbacf7afc6c144e5be9767cff80f25aff23e52b0708f17e20f9879b2f21516c',
} as const;

let jobs = 0;

export function replicateJob(fake: FakeReplicate, slug: keyof typeof REPLICATE_ROUTES, over: Partial<ProviderJob> = {}): ProviderJob {
  const model = findModel(slug);
  if (!model) throw new Error(`no catalog model ${slug}`);
  jobs += 1;
  return {
    generationId: `gen_replicate_${jobs}`,
    model,
    prompt: 'a lighthouse at dusk',
    params: {},
    inputs: {},
    idempotencyKey: `gen_replicate_${jobs}:submit`,
    route: { provider: 'replicate', model: REPLICATE_ROUTES[slug] },
    credentials: { apiKey: fake.apiKey, baseUrl: fake.baseUrl },
    ...over,
  };
}

/** A 64x48 PNG, the input image of image-to-image, image-to-video and upscale jobs. */
export function inputImage(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a6ea5' } })
    .png()
    .toBuffer();
}

export const imageInput = { image: { storageKey: 'inputs/test.png', contentType: 'image/png' } };

/** What an activity passes: its signal and the job's inputs (served by the fake). */
export function contextFor(fake: FakeReplicate, opts: { input?: Buffer; signal?: AbortSignal; outputCapBytes?: number } = {}): ProviderContext & { inputUrls: string[] } {
  const inputUrls: string[] = [];
  return {
    signal: opts.signal ?? new AbortController().signal,
    readInput: async () => {
      if (!opts.input) throw new Error('this job has no input');
      return opts.input;
    },
    inputUrl: async () => {
      if (!opts.input) throw new Error('this job has no input');
      const url = fake.host(opts.input, 'image/png');
      inputUrls.push(url);
      return url;
    },
    outputCapBytes: opts.outputCapBytes ?? OUTPUT_SIZE_CAPS.image,
    inputUrls,
  };
}

export function done(submitted: SubmitResult): ProviderResult {
  if (submitted.state !== 'done') throw new Error(`expected a finished job, got ${JSON.stringify(submitted)}`);
  return submitted.result;
}

export function pendingId(submitted: SubmitResult): string {
  if (submitted.state !== 'pending') throw new Error('expected a queued job');
  return submitted.providerJobId;
}

/** Polls as the gateway's worker does, until the job is done. */
export async function pollUntilDone(adapter: ProviderAdapter, job: ProviderJob, providerJobId: string, ctx: ProviderContext): Promise<ProviderResult> {
  const status = await waitFor(
    async () => {
      const polled = await adapter.poll(job, providerJobId, ctx);
      return polled.state === 'done' ? polled : undefined;
    },
    15_000,
    `Replicate job ${providerJobId} to finish`,
  );
  return status.result;
}
