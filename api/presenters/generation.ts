import type { GenerationRow, OutputRow } from '../../db/repos/generations';
import type { UrlSigner } from '../../storage/url-signer';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentOutput(output: OutputRow, signer: UrlSigner) {
  return {
    id: output.id,
    url: signer.sign(output.storage_key),
    mime: output.mime,
    ...(output.width !== null && { width: output.width }),
    ...(output.height !== null && { height: output.height }),
    ...(output.duration_s !== null && { duration_s: output.duration_s }),
  };
}

/** The wire shape of a Generation (spec §2, decisions §5). */
export function presentGeneration(gen: GenerationRow, outputs: OutputRow[], signer: UrlSigner) {
  return {
    id: gen.id,
    object: 'generation' as const,
    status: gen.status,
    modality: gen.modality,
    model: gen.model,
    prompt: gen.prompt,
    params: gen.params,
    reserved_credits: gen.reserved_credits,
    charged_credits: gen.charged_credits,
    refunded_credits: gen.refunded_credits,
    cache_hit: gen.cache_hit,
    outputs: outputs.map((o) => presentOutput(o, signer)),
    ...(gen.status === 'failed' && { error_code: gen.error_code, error_message: gen.error_message }),
    ...(gen.usage && { usage: gen.usage }),
    created_at: gen.created_at.toISOString(),
    finished_at: iso(gen.finished_at),
  };
}
