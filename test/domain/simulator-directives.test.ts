import assert from 'node:assert/strict';
import { parseSimulatorDirectives, shouldFail } from '../../domain/simulator-directives';

describe('simulator directives', () => {
  it('reads #fail, #fail:<slug>, #slow:<ms> and #tokens:<n> anywhere in the prompt', () => {
    const d = parseSimulatorDirectives('a cat #slow:250 on a mat #fail:flux-dev #tokens:12');
    assert.deepEqual(d, { failAll: false, failModels: ['flux-dev'], slowMs: 250, tokens: 12 });
    assert.ok(shouldFail(d, 'flux-dev'));
    assert.ok(!shouldFail(d, 'flux-schnell'));
    assert.ok(shouldFail(parseSimulatorDirectives('#fail'), 'anything'));
  });

  it('ignores malformed directives and plain hashtags', () => {
    assert.deepEqual(parseSimulatorDirectives('#slow:soon #tokens:-3 #sunset'), { failAll: false, failModels: [], slowMs: 0, tokens: undefined });
  });

  it('caps #slow at ten minutes', () => {
    assert.equal(parseSimulatorDirectives('#slow:99999999').slowMs, 600_000);
  });
});
