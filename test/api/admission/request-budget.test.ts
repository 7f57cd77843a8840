import assert from 'node:assert/strict';
import { INPUT_FETCH_TIMEOUT_MS } from '../../../api/admission/fetch-input';
import { longestRequestMs, MAX_INPUT_FETCHES, UNTIMED_WORK_MS } from '../../../api/admission/request-budget';

describe('the longest request (api/admission/request-budget.ts)', () => {
  it('adds up the input fetches, the admission wait, the sync wait and the untimed work', () => {
    const ms = longestRequestMs({ syncTimeoutMs: 30_000, admissionTimeoutMs: 30_000 });
    assert.equal(ms, MAX_INPUT_FETCHES * INPUT_FETCH_TIMEOUT_MS + 30_000 + 30_000 + UNTIMED_WORK_MS);
    // The defaults of SYNC_TIMEOUT_MS and ADMISSION_TIMEOUT_MS: a lipsync avatar's two 15 s fetches,
    // 30 s for admission, 30 s of sync wait and 30 s for the rest.
    assert.equal(ms, 120_000);
  });

  it('grows with each configured timeout', () => {
    const base = longestRequestMs({ syncTimeoutMs: 30_000, admissionTimeoutMs: 30_000 });
    assert.equal(longestRequestMs({ syncTimeoutMs: 90_000, admissionTimeoutMs: 30_000 }), base + 60_000);
    assert.equal(longestRequestMs({ syncTimeoutMs: 30_000, admissionTimeoutMs: 90_000 }), base + 60_000);
  });

  it('still covers input fetches and untimed work for an async request with a short admission timeout', () => {
    assert.equal(longestRequestMs({ syncTimeoutMs: 0, admissionTimeoutMs: 1_000 }), 2 * 15_000 + 1_000 + 30_000);
  });
});
