import type { GenerationRow, OutputRow } from '../../db/repos/generations';
import { outputGone } from '../../domain/output-retention';
import type { Storage } from '../../storage/types';

/** Signs output URLs: local storage's HMAC URLs, or S3 presigned GETs; an expired output's is always the API's own. */
export type FileUrlSigner = Pick<Storage, 'signedGetUrl' | 'servedGetUrl'>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** `expiresAt`: its generation's (output retention); null: kept until deleted. */
export async function presentOutput(output: OutputRow, files: FileUrlSigner, expiresAt: Date | null = null) {
  return {
    id: output.id,
    // Gone (expired or deleted): a URL the API serves, answering 410 output_expired on any backend.
    url: outputGone({ expires_at: expiresAt, deleted_at: output.deleted_at ?? null }, new Date())
      ? await files.servedGetUrl(output.storage_key)
      : await files.signedGetUrl(output.storage_key, expiresAt ? new Date(expiresAt) : undefined),
    mime: output.mime,
    ...(output.width !== null && { width: output.width }),
    ...(output.height !== null && { height: output.height }),
    ...(output.duration_s !== null && { duration_s: output.duration_s }),
    expires_at: expiresAt ? new Date(expiresAt).toISOString() : null,
    deleted_at: output.deleted_at ? new Date(output.deleted_at).toISOString() : null,
  };
}

/** The wire shape of a Generation (spec §2, decisions §5). */
export async function presentGeneration(gen: GenerationRow, outputs: OutputRow[], files: FileUrlSigner) {
  return {
    id: gen.id,
    object: 'generation' as const,
    status: gen.status,
    modality: gen.modality,
    model: gen.model,
    api_key_id: gen.api_key_id,
    prompt: gen.prompt,
    params: gen.params,
    reserved_credits: gen.reserved_credits,
    charged_credits: gen.charged_credits,
    refunded_credits: gen.refunded_credits,
    cache_hit: gen.cache_hit,
    // The price it was admitted at and is charged at (domain/pricing-snapshot.ts); null before snapshots.
    pricing: gen.pricing ?? null,
    // A comparison's child says which comparison it belongs to.
    ...(gen.comparison_id && { comparison_id: gen.comparison_id }),
    outputs: await Promise.all(outputs.map((o) => presentOutput(o, files, gen.outputs_expire_at ?? null))),
    // Provenance (decisions §7): what served it, and every provider call that ended.
    provider: gen.status === 'succeeded' ? (gen.provider ?? null) : null,
    provider_model: gen.status === 'succeeded' ? (gen.provider_model ?? null) : null,
    attempts: gen.attempts ?? [],
    ...(gen.status === 'failed' && {
      error_code: gen.error_code,
      error_message: gen.error_message,
      error_source: gen.error_source ?? 'gateway',
      retryable: gen.retryable ?? false,
    }),
    // A job its `Cancel-After` deadline canceled says so (the only canceled job with a code).
    ...(gen.status === 'canceled' && gen.error_code !== null && { error_code: gen.error_code, error_message: gen.error_message }),
    ...(gen.usage && { usage: gen.usage }),
    // Chat's answer, or a transcription's text.
    ...(gen.output_text !== null && gen.output_text !== undefined && { text: gen.output_text }),
    deadline_at: iso(gen.deadline_at ?? null),
    created_at: gen.created_at.toISOString(),
    finished_at: iso(gen.finished_at),
  };
}
