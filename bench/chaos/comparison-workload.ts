import { Client, Connection } from '@temporalio/client';
import type { PlannedGeneration, PlannedRequest, Submitted } from './workload';

// The chaos run's comparisons: 2 or 3 models of one modality (the Pro plan's cap is 3), round robin
// over the eight modalities, slow enough to be in flight when the faults hit; some with one model
// failing (#fail:<slug>: a partial), some with every model failing, some cancelled on the way, and
// a few whose workflow an operator terminates (its children go on; the reconciler records the verdict).

export type Verdict = 'succeeded' | 'partial' | 'failed';

export interface PlannedComparison extends PlannedRequest {
  kind: 'comparison';
  models: string[];
  /** The verdict the directives ask for, if nothing else (a cancel, a fault) intervenes. */
  planned: Verdict;
  /** The models whose child the directives fail (`#fail:<slug>`). */
  failing: string[];
  /** Every child's #slow. */
  slowMs: number;
}

/** Models a Pro plan may compare, and what `params_shared` each modality needs besides the prompt. */
function modalityPlans(imageUrl: string): [string, string[], Record<string, unknown>][] {
  return [
    ['image', ['flux-schnell', 'flux-dev', 'imagen-4-fast'], {}],
    ['voice', ['openai-tts-1', 'openai-tts-1-hd', 'eleven-flash-v2.5'], {}],
    ['chat', ['gpt-5-mini', 'claude-haiku-4.5', 'gemini-2.5-flash-lite'], { max_tokens: 200 }],
    // The two text-to-video models a Pro plan has that render 6 s.
    ['video', ['hailuo-02', 'seedance-1-pro-fast'], { duration_s: 6 }],
    ['music', ['minimax-music-v2', 'minimax-music-v1.5', 'ace-step'], { duration_s: 15 }],
    // A stock avatar and a portrait model: each takes the field it animates.
    ['avatar', ['veed-avatars', 'multitalk'], { avatar_id: 'ava_emily', image_url: imageUrl }],
    // The Pro plan's only text-to-3D model is Tripo's: compare the image-to-3D ones instead.
    ['3d', ['trellis', 'hunyuan3d-v2', 'tripo-v2.5-image'], { image_url: imageUrl }],
    // Upscale has no text input, but its children carry the comparison's prompt, directives included.
    ['upscale', ['real-esrgan', 'codeformer', 'gfpgan'], { image_url: imageUrl, scale_factor: '2' }],
  ];
}

export function planComparisons(count: number, imageUrl: string): PlannedComparison[] {
  const plans = modalityPlans(imageUrl);
  return Array.from({ length: count }, (_, i) => {
    const [modality, all, paramsShared] = plans[i % plans.length]!;
    const models = all.slice(0, 2 + (i % 2) * (all.length - 2));
    const planned: Verdict = i % 5 === 3 ? 'failed' : i % 3 === 1 ? 'partial' : 'succeeded';
    const failing = planned === 'failed' ? models : planned === 'partial' ? [models[models.length - 1]!] : [];
    const sync = ['image', 'voice', 'chat'].includes(modality);
    const cancel = i % 3 === 2;
    // Sync 5 to 35 s, async 10 to 70 s, spread over the faults; those to be cancelled longer (sync 30
    // to 40 s, async 60 to 90 s), so that most are still running when their cancel lands.
    const slowMs = cancel ? (sync ? 30_000 + ((i * 7) % 11) * 1_000 : 60_000 + ((i * 7) % 31) * 1_000) : sync ? 5_000 + ((i * 13) % 31) * 1_000 : 10_000 + ((i * 17) % 61) * 1_000;
    const prompt = `chaos comparison ${i} #slow:${slowMs}${failing.map((slug) => ` #fail:${slug}`).join('')}`;
    return {
      kind: 'comparison',
      route: '/v1/comparisons',
      modality,
      body: { prompt, models, params_shared: paramsShared },
      fails: failing.length > 0,
      cancel,
      models,
      planned,
      failing,
      slowMs,
    };
  });
}

/** The generations with a comparison after every `every` of them, so both are in flight together. */
export function interleave(generations: PlannedGeneration[], comparisons: PlannedComparison[], every: number): (PlannedGeneration | PlannedComparison)[] {
  const mixed: (PlannedGeneration | PlannedComparison)[] = [];
  const rest = [...comparisons];
  generations.forEach((g, i) => {
    mixed.push(g);
    if ((i + 1) % every === 0 && rest.length > 0) mixed.push(rest.shift()!);
  });
  return [...mixed, ...rest];
}

/**
 * Terminates the workflows of `n` comparisons not planned for a cancel, the ones with the slowest
 * children first, as an operator might from the Temporal UI. Their children go on (parent close
 * policy ABANDON) and settle themselves; nothing but the reconciler can record the verdict.
 * Answers the ids it terminated (a comparison that already finished cannot be).
 */
export async function terminateComparisons(temporalAddress: string, comparisons: Submitted<PlannedComparison>[], n: number): Promise<string[]> {
  const candidates = comparisons.filter((c) => !c.cancel).sort((a, b) => b.slowMs - a.slowMs);
  const connection = await Connection.connect({ address: temporalAddress });
  const terminated: string[] = [];
  try {
    const temporal = new Client({ connection });
    for (const c of candidates) {
      if (terminated.length === n) break;
      const handle = temporal.workflow.getHandle(c.id);
      if ((await handle.describe()).status.name !== 'RUNNING') continue;
      // It may finish between the two calls; then it cannot be terminated and the next one is.
      const done = await handle.terminate('npm run chaos: an operator terminates a comparison workflow').then(
        () => true,
        () => false,
      );
      if (done) terminated.push(c.id);
    }
  } finally {
    await connection.close();
  }
  return terminated;
}
