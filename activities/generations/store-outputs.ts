// Output ingest: a provider's result becomes a ProviderOutcome. Its files go to storage inside the
// step that produced them (real providers' remote files through the checks of
// providers/ingest-output.ts), so only their rows travel through Temporal; its text is made
// storable and a chat answer gets its token usage before anything is stored.
import { Context } from '@temporalio/activity';
import type { Modality } from '../../domain/modalities';
import { OUTPUT_SIZE_CAPS } from '../../domain/output-limits';
import { storableProviderText } from '../../domain/text-input';
import { newId } from '../../lib/ids';
import type { Storage } from '../../storage/types';
import type { GeneratedFile, GenerationInput, ProviderOutcome } from '../../workflows/definitions';
import { badOutput } from '../providers/http-failure';
import { ingestProviderFile } from '../providers/ingest-output';
import type { ProviderJob, ProviderResult, ProviderUsage } from '../providers/types';
import { observeIngest } from '../job-metrics';

/** How long fetching one provider output may take (a large video over a slow CDN). */
const OUTPUT_FETCH_TIMEOUT_MS = 10 * 60_000;

/** Per-modality output caps, in bytes; domain/output-limits.ts where a modality has none. */
export type OutputCaps = Partial<Record<Modality, number>>;

export function outputCapOf(caps: OutputCaps | undefined, modality: Modality): number {
  return caps?.[modality] ?? OUTPUT_SIZE_CAPS[modality];
}

export type StoreOutputs = (input: GenerationInput, job: ProviderJob, result: ProviderResult) => Promise<ProviderOutcome>;

export function createOutputStore(deps: {
  storage: Storage;
  outputCapsBytes?: OutputCaps;
  /** ALLOW_PRIVATE_INPUT_URLS: output URLs on private addresses (tests, development). */
  allowPrivateOutputUrls?: boolean;
  /** How long fetching one output file may take. */
  outputFetchTimeoutMs?: number;
}): StoreOutputs {
  const { storage } = deps;

  /** The provider's files into storage (real providers' through the checks of ingest-output.ts). */
  return async function storeOutputs(input, job, result) {
    const startedAt = performance.now();
    const outputs: GeneratedFile[] = [];
    const signal = Context.current().cancellationSignal;
    for (const [position, file] of result.files.entries()) {
      const keyBase = `outputs/${input.generationId}/${position}`;
      if ('kind' in file) {
        const ingested = await ingestProviderFile(file, {
          provider: job.route.provider,
          modality: input.modality,
          capBytes: outputCapOf(deps.outputCapsBytes, input.modality),
          storage,
          keyBase,
          signal,
          timeoutMs: deps.outputFetchTimeoutMs ?? OUTPUT_FETCH_TIMEOUT_MS,
          ...(job.credentials.baseUrl && { trustedOrigin: new URL(job.credentials.baseUrl).origin }),
          ...(deps.allowPrivateOutputUrls && { allowPrivateAddresses: true }),
        });
        outputs.push({ id: newId('out'), position, ...ingested });
        continue;
      }
      const storageKey = `${keyBase}.${file.extension}`;
      await storage.put(storageKey, file.data, file.mime);
      outputs.push({
        id: newId('out'),
        position,
        storageKey,
        mime: file.mime,
        ...(file.width !== undefined && { width: file.width }),
        ...(file.height !== undefined && { height: file.height }),
        ...(file.durationS !== undefined && { durationS: file.durationS }),
      });
    }
    if (input.modality === 'chat' && result.text === undefined) throw badOutput(job.route.provider, 'a chat answer has no text');
    // Decisions §5: a provider's text may hold a U+0000 (or a lone surrogate), which no column
    // stores; made storable here, before anything is stored, so a job the provider was paid for
    // can never fail on its insert and be refunded.
    const text = result.text === undefined ? undefined : storableProviderText(result.text);
    const usage = input.modality === 'chat' ? chatUsage({ ...result, text }) : result.usage;
    observeIngest(input.modality, startedAt);
    return {
      outputs,
      ...(text !== undefined && { text }),
      ...(usage && { usage }),
      served: job.route,
    };
  };
}

/**
 * Chat is charged on the output tokens the provider reports; a provider that reports none (many
 * OpenAI-compatible servers) is charged on the answer's length in tokens, counted with the
 * o200k_base tokenizer (gpt-tokenizer), and the usage says it was estimated.
 */
function chatUsage(result: ProviderResult): ProviderUsage {
  if (result.usage?.outputTokens !== undefined) return result.usage;
  // Required here, not imported: the tokenizer's tables are about 45 MB, needed only for this.
  const { countTokens } = require('gpt-tokenizer') as typeof import('gpt-tokenizer');
  return { ...result.usage, outputTokens: countTokens(result.text ?? ''), outputTokensEstimated: true };
}
