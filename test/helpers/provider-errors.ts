import assert from 'node:assert/strict';
import { ProviderError } from '../../activities/providers/types';

/** For `assert.rejects`: the adapter failed with this ProviderError code and retryability. */
export function failsWith(code: string, retryable: boolean, extra: (err: ProviderError) => void = () => undefined) {
  return (err: unknown): true => {
    assert.ok(err instanceof ProviderError, `expected a ProviderError ${code}, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    assert.equal(err.retryable, retryable, `${code} retryable: ${err.message}`);
    extra(err);
    return true;
  };
}
