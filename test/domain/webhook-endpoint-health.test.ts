import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../config';
import { disableReason } from '../../domain/webhook-endpoint-health';

// When a failed attempt disables its webhook (issue 41), and how WEBHOOK_DISABLE_AFTER is read.

const now = new Date('2026-11-27T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const FIVE_DAYS = 5 * 86_400_000;

describe('webhook endpoint health', () => {
  it('disables on a 410 at once, and on any failure once every attempt has failed for the window', () => {
    assert.match(disableReason({ statusCode: 410, failingSince: null, now, disableAfterMs: FIVE_DAYS })!, /410 Gone/);
    assert.match(disableReason({ statusCode: 500, failingSince: ago(FIVE_DAYS), now, disableAfterMs: FIVE_DAYS })!, /since 2026-11-22T12:00:00.000Z/);
    assert.match(disableReason({ statusCode: null, failingSince: ago(FIVE_DAYS + 1), now, disableAfterMs: FIVE_DAYS })!, /WEBHOOK_DISABLE_AFTER/);
  });

  it('keeps a webhook enabled while it has failed for less than the window, or not yet at all', () => {
    assert.equal(disableReason({ statusCode: 500, failingSince: ago(FIVE_DAYS - 1), now, disableAfterMs: FIVE_DAYS }), null);
    assert.equal(disableReason({ statusCode: 503, failingSince: null, now, disableAfterMs: FIVE_DAYS }), null);
  });

  it('reads WEBHOOK_DISABLE_AFTER as a duration, 5 days by default, and refuses one it cannot read', () => {
    assert.equal(loadConfig({}).webhookDisableAfterMs, FIVE_DAYS);
    assert.equal(loadConfig({ WEBHOOK_DISABLE_AFTER: '90s' }).webhookDisableAfterMs, 90_000);
    assert.equal(loadConfig({ WEBHOOK_DISABLE_AFTER: '2d' }).webhookDisableAfterMs, 2 * 86_400_000);
    assert.throws(
      () => loadConfig({ WEBHOOK_DISABLE_AFTER: 'a week' }),
      (err: unknown) => err instanceof ConfigError && /WEBHOOK_DISABLE_AFTER: "a week"/.test(err.message),
    );
  });
});
