import assert from 'node:assert/strict';
import { createCipheriv, randomBytes } from 'node:crypto';
import { ConfigError, loadConfig, providerSecretsKeys, webhookSecretsKeys } from '../../config';
import { createSecretBox, generateSecretBoxKey, secretKeyId } from '../../lib/secret-box';

// Secrets at rest (issue 33): key ids, older keys that still open, values bound to their row, a
// pinned tag length, and v1 values from before all that still opening.

const BOUND = 'webhook_subscriptions:whk_1:secret';

/** A value as the v1 box (before key ids and bindings) sealed it. */
function sealV1(key: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'base64'), iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

describe('the secret box', () => {
  const [a, b] = [generateSecretBoxKey(), generateSecretBoxKey()];

  it('opens what it sealed, with a fresh ciphertext every time, in v2 naming its key', () => {
    const box = createSecretBox(a);
    const [x, y] = [box.seal('whsec_abc', BOUND), box.seal('whsec_abc', BOUND)];
    assert.notEqual(x, y);
    assert.equal(box.open(x, BOUND), 'whsec_abc');
    const kid = secretKeyId(Buffer.from(a, 'base64'));
    assert.match(kid, /^[A-Za-z0-9_-]{8}$/);
    assert.equal(x.split('.')[0], 'v2');
    assert.equal(x.split('.')[1], kid);
    assert.ok(x.startsWith(box.currentPrefix));
  });

  it('seals with the newest key and opens with any configured one', () => {
    const old = createSecretBox(a).seal('whsec_old', BOUND);
    const rotated = createSecretBox([b, a]);
    assert.equal(rotated.open(old, BOUND), 'whsec_old');
    assert.ok(!old.startsWith(rotated.currentPrefix), 'a value on the old key is to re-seal');
    const fresh = rotated.seal('whsec_new', BOUND);
    assert.ok(fresh.startsWith(rotated.currentPrefix));
    assert.equal(createSecretBox(b).open(fresh, BOUND), 'whsec_new', 'the new key alone opens what the rotated box sealed');
    assert.throws(() => createSecretBox(a).open(fresh, BOUND), /key that is not configured/);
    assert.throws(() => createSecretBox(b).open(old, BOUND), /key that is not configured/);
  });

  it('refuses a value copied to another row (associated data)', () => {
    const box = createSecretBox(a);
    const sealed = box.seal('sk-org-key', 'provider_credentials:org_1:openai');
    assert.throws(() => box.open(sealed, 'provider_credentials:org_2:openai'));
    assert.throws(() => box.open(sealed, 'provider_credentials:org_1:anthropic'));
    assert.equal(box.open(sealed, 'provider_credentials:org_1:openai'), 'sk-org-key');
  });

  it('refuses a truncated tag, a tampered ciphertext, and a key that is not 32 bytes', () => {
    const box = createSecretBox(a);
    const sealed = box.seal('whsec_abc', BOUND);
    const [v, kid, iv, tag, ct] = sealed.split('.') as [string, string, string, string, string];
    // GCM itself accepts a tag as short as 4 bytes, and a short tag is far easier to forge.
    const shortTag = Buffer.from(tag, 'base64url').subarray(0, 4).toString('base64url');
    assert.throws(() => box.open([v, kid, iv, shortTag, ct].join('.'), BOUND), /not a sealed secret/);
    const flipped = `${ct[0] === 'A' ? 'B' : 'A'}${ct.slice(1)}`;
    assert.throws(() => box.open([v, kid, iv, tag, flipped].join('.'), BOUND));
    assert.throws(() => createSecretBox(Buffer.alloc(16).toString('base64')), /WEBHOOK_SECRETS_KEY/);
  });

  it('still opens v1 values (no key id, no binding) with any configured key, and refuses their truncated tag', () => {
    const v1 = sealV1(a, 'whsec_from_before');
    assert.equal(createSecretBox(a).open(v1, BOUND), 'whsec_from_before');
    assert.equal(createSecretBox([b, a]).open(v1, BOUND), 'whsec_from_before');
    assert.ok(!v1.startsWith(createSecretBox(a).currentPrefix), 'a v1 value is to re-seal');
    assert.throws(() => createSecretBox(b).open(v1, BOUND), /opens with none of the configured keys/);
    const [v, iv, tag, ct] = v1.split('.') as [string, string, string, string];
    const shortTag = Buffer.from(tag, 'base64url').subarray(0, 12).toString('base64url');
    assert.throws(() => createSecretBox(a).open([v, iv, shortTag, ct].join('.'), BOUND));
  });
});

describe('secrets keys settings', () => {
  const [a, b, c] = [generateSecretBoxKey(), generateSecretBoxKey(), generateSecretBoxKey()];

  it('never falls back from PROVIDER_SECRETS_KEY to WEBHOOK_SECRETS_KEY', () => {
    const config = loadConfig({ WEBHOOK_SECRETS_KEY: a });
    assert.equal(config.providerSecretsKey, undefined);
    assert.deepEqual(providerSecretsKeys(config), []);
    assert.deepEqual(webhookSecretsKeys(config), [a]);
    assert.deepEqual(webhookSecretsKeys(loadConfig({ PROVIDER_SECRETS_KEY: a })), []);
  });

  it('takes older keys as a comma-separated _PREVIOUS list, the newest key first', () => {
    const config = loadConfig({ WEBHOOK_SECRETS_KEY: a, WEBHOOK_SECRETS_KEY_PREVIOUS: ` ${b}, ${c} `, PROVIDER_SECRETS_KEY: c, PROVIDER_SECRETS_KEY_PREVIOUS: a });
    assert.deepEqual(webhookSecretsKeys(config), [a, b, c]);
    assert.deepEqual(providerSecretsKeys(config), [c, a]);
  });

  it('refuses older keys without a current one, a repeated key, and a key that is not 32 bytes, naming the setting', () => {
    assert.throws(
      () => loadConfig({ PROVIDER_SECRETS_KEY_PREVIOUS: a }),
      (err) => err instanceof ConfigError && /PROVIDER_SECRETS_KEY_PREVIOUS is set without PROVIDER_SECRETS_KEY/.test(err.message),
    );
    assert.throws(() => loadConfig({ WEBHOOK_SECRETS_KEY: a, WEBHOOK_SECRETS_KEY_PREVIOUS: a }), /WEBHOOK_SECRETS_KEY_PREVIOUS repeats a key/);
    assert.throws(() => loadConfig({ WEBHOOK_SECRETS_KEY: 'c2hvcnQ=' }), /WEBHOOK_SECRETS_KEY and WEBHOOK_SECRETS_KEY_PREVIOUS take base64 of 32 random bytes/);
    assert.throws(() => loadConfig({ PROVIDER_SECRETS_KEY: a, PROVIDER_SECRETS_KEY_PREVIOUS: `${b},nope` }), /PROVIDER_SECRETS_KEY and PROVIDER_SECRETS_KEY_PREVIOUS/);
  });
});
