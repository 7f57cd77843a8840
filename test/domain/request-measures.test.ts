import assert from 'node:assert/strict';
import { findModel } from '../../domain/catalog';
import { imageSize } from '../../domain/image-sizes';
import { estimateCredits, estimateImageCredits } from '../../domain/pricing';
import { REQUEST_MEASURES } from '../../domain/request-measures';

// What each request is priced on, the rule the API's reservation and the dashboard's estimate share.

describe('request measures', () => {
  it('prices images on their count at the aspect ratio’s size, as estimateImageCredits does', () => {
    assert.deepEqual(REQUEST_MEASURES.image(2, '16:9'), { count: 2, widthPx: 1344, heightPx: 756 });
    const flux = findModel('flux-dev')!;
    assert.equal(estimateCredits(flux, REQUEST_MEASURES.image(2, '16:9'), 'pro'), estimateImageCredits(flux, { numOutputs: 2, ...imageSize('16:9') }, 'pro'));
  });

  it('prices video and music on seconds, chat on max_tokens, speech on characters, 3D per mesh', () => {
    assert.deepEqual(REQUEST_MEASURES.timed(6), { durationMs: 6000 });
    assert.deepEqual(REQUEST_MEASURES.chat(1024), { outputTokens: 1024 });
    assert.deepEqual(REQUEST_MEASURES.speech('hello there'), { characters: 11 });
    assert.deepEqual(REQUEST_MEASURES.threeD(), { count: 1 });
    // hailuo-02: 45 credits a second; 6 s on Pro (×1.6) is 432.
    assert.equal(estimateCredits(findModel('hailuo-02')!, REQUEST_MEASURES.timed(6), 'pro'), 432);
  });
});
