import assert from 'node:assert/strict';
import fc from 'fast-check';
import { findModel, listModels, PRICING_UNITS } from '../../domain/catalog';
import { imageSize } from '../../domain/image-sizes';
import { PLAN_MULTIPLIER_TENTHS, PLANS } from '../../domain/plans';
import { billedQuantity, creditsFor, deliveredCredits, deliveredQuantity, estimateCredits, estimateImageCredits, microCredits, unitPriceOf } from '../../domain/pricing';

const q = (amount: number, per = 1) => ({ amount, per });

// Prices as the catalog has them: up to six decimals, up to 100,000 credits per unit.
const price = fc.integer({ min: 0, max: 100_000_000_000 }).map((micro) => micro / 1_000_000);
const quantity = fc.record({ amount: fc.integer({ min: 0, max: 1_000_000_000 }), per: fc.constantFrom(1, 1_000, 60_000, 1_000_000) });
const plan = fc.constantFrom(...PLANS);

/** amount/per × price × multiplier as an exact fraction of BigInts. */
function exactCost(qty: { amount: number; per: number }, creditsPerUnit: number, p: (typeof PLANS)[number]) {
  return {
    numerator: BigInt(qty.amount) * BigInt(Math.round(creditsPerUnit * 1e6)) * BigInt(PLAN_MULTIPLIER_TENTHS[p]),
    denominator: BigInt(qty.per) * 10_000_000n,
  };
}

describe('pricing', () => {
  it('rounds up to whole credits after the plan multiplier', () => {
    assert.equal(creditsFor(q(1), 40, 'free'), 40);
    assert.equal(creditsFor(q(1), 40, 'pro'), 64);
    assert.equal(creditsFor(q(1), 40, 'studio'), 64);
    assert.equal(creditsFor(q(1), 40, 'team'), 52);
    assert.equal(creditsFor(q(1_048_576, 1_000_000), 25, 'pro'), 42);
    assert.equal(creditsFor(q(1, 1_000), 1, 'free'), 1);
    assert.equal(creditsFor(q(0), 25, 'studio'), 0);
  });

  it('does not let floating-point noise add a credit', () => {
    // 0.1 × 3 × 10 is 3.0000000000000004 in binary floating point.
    assert.equal(creditsFor(q(1, 10), 30, 'free'), 3);
    assert.equal(creditsFor(q(3), 0.1, 'free'), 1);
    assert.equal(creditsFor(q(30), 0.1, 'free'), 3);
  });

  it('never rounds a true cost down, however small the excess', () => {
    // 1,000,001 tokens at 1 credit per 1M: 1.000001 credits → 2.
    assert.equal(creditsFor(q(1_000_001, 1_000_000), 1, 'free'), 2);
  });

  it('measures every unit the spec lists', () => {
    assert.deepEqual(billedQuantity('image', { count: 3 }), q(3));
    assert.deepEqual(billedQuantity('megapixel', { count: 2, widthPx: 1024, heightPx: 1024 }), q(2_097_152, 1_000_000));
    assert.deepEqual(billedQuantity('second', { durationMs: 5_000 }), q(5_000, 1_000));
    assert.deepEqual(billedQuantity('minute', { durationMs: 90_000 }), q(90_000, 60_000));
    assert.deepEqual(billedQuantity('1k_characters', { characters: 2_500 }), q(2_500, 1_000));
    assert.deepEqual(billedQuantity('song', {}), q(1));
    assert.deepEqual(billedQuantity('3d_model', {}), q(1));
    assert.deepEqual(billedQuantity('1m_output_tokens', { outputTokens: 1_024 }), q(1_024, 1_000_000));
    assert.throws(() => billedQuantity('second', {}), /needs a duration/);
    assert.throws(() => billedQuantity('1m_output_tokens', { characters: 5 }), /output token count/);
  });

  it('prices catalog models by their own unit', () => {
    const ultra = findModel('flux-1.1-pro-ultra');
    const dev = findModel('flux-dev');
    assert.ok(ultra && dev);
    assert.equal(estimateImageCredits(ultra, { numOutputs: 3, ...imageSize('16:9') }, 'free'), 180);
    assert.equal(estimateImageCredits(dev, { numOutputs: 4, ...imageSize('1:1') }, 'free'), Math.ceil(4 * 1.048576 * 25));
  });

  it('can price every catalog model: each price has at most six decimals', () => {
    for (const model of listModels()) {
      assert.doesNotThrow(() => microCredits(model.pricing.creditsPerUnit), model.slug);
      const measure = { count: 1, widthPx: 1024, heightPx: 1024, durationMs: 10_000, characters: 1_000, outputTokens: 1_024 };
      assert.ok(estimateCredits(model, measure, 'free') > 0, `${model.slug} costs something`);
    }
    assert.equal(PRICING_UNITS.length, 8);
  });

  it('rejects negative or fractional quantities and bad prices', () => {
    assert.throws(() => creditsFor(q(-1), 10, 'free'), RangeError);
    assert.throws(() => creditsFor(q(1.5), 10, 'free'), RangeError);
    assert.throws(() => creditsFor(q(1, 0), 10, 'free'), RangeError);
    assert.throws(() => creditsFor(q(1), -1, 'free'), RangeError);
    assert.throws(() => creditsFor(q(1), 0.0000001, 'free'), RangeError);
    assert.throws(() => creditsFor(q(1), Number.NaN, 'free'), RangeError);
  });

  describe('properties', () => {
    it('is never below the raw cost, and less than one credit above it', () => {
      fc.assert(
        fc.property(quantity, price, plan, (qty, cpu, p) => {
          const credits = BigInt(creditsFor(qty, cpu, p));
          const { numerator, denominator } = exactCost(qty, cpu, p);
          return credits * denominator >= numerator && (credits - 1n) * denominator < numerator;
        }),
      );
    });

    it('is monotone in units', () => {
      fc.assert(
        fc.property(quantity, fc.integer({ min: 0, max: 1_000_000 }), price, plan, (qty, more, cpu, p) => {
          return creditsFor(qty, cpu, p) <= creditsFor({ ...qty, amount: qty.amount + more }, cpu, p);
        }),
      );
    });

    it('applies the plan multiplier exactly once', () => {
      fc.assert(
        fc.property(quantity, price, plan, (qty, cpu, p) => {
          // Pricing on a plan equals pricing on Free at the price already multiplied once.
          const multiplied = (Math.round(cpu * 1e6) * PLAN_MULTIPLIER_TENTHS[p]) / 10;
          if (!Number.isInteger(multiplied)) return true; // not representable as a six-decimal price
          return creditsFor(qty, cpu, p) === creditsFor(qty, multiplied / 1e6, 'free');
        }),
      );
      assert.equal(creditsFor(q(100), 1, 'pro'), 160);
      assert.notEqual(creditsFor(q(100), 1, 'pro'), 256);
    });

    it('never charges more for a job than for its parts priced apart', () => {
      fc.assert(
        fc.property(quantity, fc.integer({ min: 0, max: 1_000_000_000 }), price, plan, (qty, other, cpu, p) => {
          const whole = creditsFor({ ...qty, amount: qty.amount + other }, cpu, p);
          return whole <= creditsFor(qty, cpu, p) + creditsFor({ ...qty, amount: other }, cpu, p);
        }),
      );
    });
  });

  describe('what a delivery costs (decisions §4: the actual cost)', () => {
    it('counts the files, adds up their pixels or their seconds', () => {
      assert.deepEqual(deliveredQuantity('image', [{}, {}, {}]), q(3));
      assert.deepEqual(deliveredQuantity('3d_model', [{}]), q(1));
      assert.deepEqual(
        deliveredQuantity('megapixel', [
          { width: 1024, height: 768 },
          { width: 512, height: 512 },
        ]),
        q(1024 * 768 + 512 * 512, 1_000_000),
      );
      assert.deepEqual(deliveredQuantity('second', [{ durationS: '5.042' }]), q(5_042, 1_000));
    });

    it('leaves units priced on the request, and deliveries missing a figure, to the estimate', () => {
      for (const unit of ['1k_characters', 'minute', '1m_output_tokens'] as const) assert.equal(deliveredQuantity(unit, [{ durationS: '60' }]), undefined);
      assert.equal(deliveredQuantity('megapixel', [{ width: 1024, height: 768 }, { width: 512 }]), undefined);
      assert.equal(deliveredQuantity('second', [{}]), undefined);
      assert.equal(deliveredQuantity('second', [{ durationS: 'NaN' }]), undefined);
      assert.equal(deliveredQuantity('image', []), undefined);
    });

    it('prices a full delivery exactly as the estimate did', () => {
      const flux = findModel('flux-dev')!;
      const size = imageSize('16:9');
      assert.equal(deliveredCredits(unitPriceOf(flux, 'pro'), [{ ...size }, { ...size }]), estimateImageCredits(flux, { numOutputs: 2, ...size }, 'pro'));
      const veo = findModel('veo-3')!;
      assert.equal(deliveredCredits(unitPriceOf(veo, 'team'), [{ durationS: '8' }]), estimateCredits(veo, { durationMs: 8_000 }, 'team'));
      assert.equal(
        deliveredCredits(
          unitPriceOf(
            listModels().find((m) => m.pricing.unit === '1k_characters')!,
            'free',
          ),
          [{ durationS: '3' }],
        ),
        undefined,
      );
    });
  });
});
