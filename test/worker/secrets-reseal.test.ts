import assert from 'node:assert/strict';
import { createCipheriv, randomBytes } from 'node:crypto';
import { providerSecretsKeys, webhookSecretsKeys } from '../../config';
import { createLogger, silentLogger } from '../../lib/logger';
import { providerCredentialBinding, webhookSecretBinding } from '../../lib/secret-bindings';
import { createSecretBox, generateSecretBoxKey } from '../../lib/secret-box';
import { createSealedSecretsRepo } from '../../db/repos/sealed-secrets';
import { resealSecrets } from '../../worker/reseal-secrets';
import { call, createOrganization } from '../helpers/http';
import { stack } from '../helpers/stack';

// The background re-seal (worker/reseal-secrets.ts): v1 values from before key ids move to v2, a
// pass reports 0 values left on older keys, and a value the API changed meanwhile is never
// overwritten with the re-sealed old one.

const SECRET_COLUMN = { table: 'webhook_subscriptions', keys: ['id'], column: 'secret_sealed' } as const;

/** A value as the v1 box sealed it (before key ids and bindings): what a database from before the upgrade holds. */
function sealV1(key: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'base64'), iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

async function subscribe(key: string) {
  const res = await call('POST', '/v1/webhooks', { key, body: { url: 'https://127.0.0.1:9/hook', events: ['*'] } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; secret: string };
}

describe('the secrets re-seal', function () {
  this.timeout(60_000);
  const box = () => createSecretBox(webhookSecretsKeys(stack().config));

  it('moves a v1 value to v2 under the newest key, bound to its row, and leaves on older keys only what no key opens', async () => {
    const org = await createOrganization();
    const hook = await subscribe(org.liveKey);
    // The row as an upgraded database holds it: sealed by the v1 box with the same key.
    await stack()
      .knex('webhook_subscriptions')
      .where({ id: hook.id })
      .update({ secret_sealed: sealV1(stack().config.webhookSecretsKey!, hook.secret) });

    const result = await resealSecrets(stack().knex, { webhooks: box() }, silentLogger);
    assert.ok(result && result.resealed >= 1, JSON.stringify(result));
    // 0 and 0 alone; other tests of a whole run may leave values no key opens, which stay counted.
    assert.equal(result.leftOnOlderKeys, result.unopenable);
    const { secret_sealed: sealed } = await stack().knex('webhook_subscriptions').where({ id: hook.id }).first('secret_sealed');
    assert.ok(sealed.startsWith(box().currentPrefix));
    assert.equal(box().open(sealed, webhookSecretBinding(hook.id)), hook.secret);
    assert.deepEqual(await resealSecrets(stack().knex, { webhooks: box() }, silentLogger), { resealed: 0, unopenable: result.unopenable, leftOnOlderKeys: result.unopenable });
  });

  it('never overwrites a secret rotated through the API after the re-seal read it', async () => {
    const org = await createOrganization();
    const hook = await subscribe(org.liveKey);
    const stale = sealV1(stack().config.webhookSecretsKey!, hook.secret);
    await stack().knex('webhook_subscriptions').where({ id: hook.id }).update({ secret_sealed: stale });
    const repo = createSealedSecretsRepo(stack().knex);
    const [read] = (await repo.staleBatch(SECRET_COLUMN, box().currentPrefix, undefined, 10_000)).filter((v) => v.key[0] === hook.id);
    assert.equal(read?.sealed, stale);

    const rotated = await call('POST', `/v1/webhooks/${hook.id}/rotate-secret`, { key: org.liveKey });
    assert.equal(rotated.status, 200);
    const resealed = box().seal(box().open(read.sealed, webhookSecretBinding(hook.id)), webhookSecretBinding(hook.id));
    assert.equal(await repo.replace(SECRET_COLUMN, read, resealed), false);
    const row = await stack().knex('webhook_subscriptions').where({ id: hook.id }).first('secret_sealed', 'previous_secret_sealed');
    assert.equal(box().open(row.secret_sealed, webhookSecretBinding(hook.id)), rotated.body.secret, 'the rotated secret stands');
    assert.equal(row.previous_secret_sealed, stale, 'the old secret moved aside, still to re-seal');
  });

  it('pages through every row, past a value no configured key opens, which it names and counts as left', async () => {
    const org = await createOrganization({ enterprise: true });
    const providers = createSecretBox(providerSecretsKeys(stack().config));
    for (const [provider, apiKey] of [
      ['anthropic', 'sk-ant-theOrgsOwnKey0001'],
      ['openai', 'sk-proj-theOrgsOwnKey0002'],
    ]) {
      const res = await call('PUT', `/v1/provider-credentials/${provider}`, { key: org.liveKey, body: { api_key: apiKey } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    const rows = stack().knex('provider_credentials').where({ organization_id: org.id });
    // anthropic's sealed with a key this deployment no longer has; openai's as the v1 box sealed it.
    const lostKey = createSecretBox(generateSecretBoxKey());
    await rows
      .clone()
      .where({ provider: 'anthropic' })
      .update({ sealed_api_key: lostKey.seal('sk-ant-theOrgsOwnKey0001', providerCredentialBinding(org.id, 'anthropic')) });
    await rows
      .clone()
      .where({ provider: 'openai' })
      .update({ sealed_api_key: sealV1(stack().config.providerSecretsKey!, 'sk-proj-theOrgsOwnKey0002') });
    const lines: string[] = [];
    const logger = createLogger({ write: (line) => lines.push(line) });

    try {
      // One row per batch: the cursor must step over the value it cannot open, not stop at it.
      const result = await resealSecrets(stack().knex, { providers }, logger, { batchSize: 1 });
      assert.ok(result && result.unopenable >= 1 && result.leftOnOlderKeys >= 1, JSON.stringify(result));
      const openai = await rows.clone().where({ provider: 'openai' }).first('sealed_api_key');
      assert.ok(openai.sealed_api_key.startsWith(providers.currentPrefix));
      assert.equal(providers.open(openai.sealed_api_key, providerCredentialBinding(org.id, 'openai')), 'sk-proj-theOrgsOwnKey0002');
      const named = lines.map((line) => JSON.parse(line)).find((l) => l.row === `${org.id}:anthropic`);
      assert.equal(named?.msg, 'a sealed secret opens with none of the configured keys');
      assert.equal(named?.level, 'error');
      assert.ok(!lines.join('\n').includes('sk-ant-theOrgsOwnKey0001'), 'never the secret');
    } finally {
      // The lost key's value would be counted by every later pass of the run.
      assert.equal((await call('DELETE', '/v1/provider-credentials/anthropic', { key: org.liveKey })).status, 200);
    }
  });
});
