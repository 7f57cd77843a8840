import assert from 'node:assert/strict';
import { findModel } from '../../domain/catalog';
import { imageSize } from '../../domain/image-sizes';
import { estimateImageCredits, priceCredits } from '../../domain/pricing';

describe('pricing', () => {
  it('rounds up to whole credits after the plan multiplier', () => {
    assert.equal(priceCredits(1, 40, 'free'), 40);
    assert.equal(priceCredits(1, 40, 'pro'), 64);
    assert.equal(priceCredits(1, 40, 'team'), 52);
    assert.equal(priceCredits(1.048576, 25, 'pro'), 42);
    assert.equal(priceCredits(0.001, 1, 'free'), 1);
    assert.equal(priceCredits(0, 25, 'studio'), 0);
  });

  it('does not let floating-point noise add a credit', () => {
    // 0.1 * 3 * 10 is 3.0000000000000004 in binary floating point.
    assert.equal(priceCredits(0.1, 3, 'free'), 1);
    assert.equal(priceCredits(3, 0.1, 'free'), 1);
    assert.equal(priceCredits(1, 40, 'pro'), 64);
  });

  it('prices per image and per megapixel models by their own unit', () => {
    const ultra = findModel('flux-1.1-pro-ultra');
    const dev = findModel('flux-dev');
    assert.ok(ultra && dev);
    assert.equal(estimateImageCredits(ultra, { numOutputs: 3, ...imageSize('16:9') }, 'free'), 180);
    assert.equal(estimateImageCredits(dev, { numOutputs: 4, ...imageSize('1:1') }, 'free'), Math.ceil(4 * 1.048576 * 25));
  });

  it('rejects negative units', () => {
    assert.throws(() => priceCredits(-1, 10, 'free'), RangeError);
  });
});
