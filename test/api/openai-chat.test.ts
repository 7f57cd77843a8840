import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { call, createOrganization, waitForGeneration, type TestOrganization } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { stack, startExtraApi } from '../helpers/stack';

// The OpenAI-compatible chat (issue 37 item 4), driven by the official `openai` npm package pointed
// at /v1/openai: it must run as POST /v1/chat does (same wallet, same workflow, Idempotency-Key) and
// fail with the SDK's own typed errors.

const clientFor = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${stack().apiUrl}/v1/openai`, maxRetries: 0 });
const available = async (org: TestOrganization) => (await call('GET', '/v1/balance', { key: org.liveKey })).body.available_credits as number;
const generationCount = async (org: TestOrganization) => (await call('GET', '/v1/generations?limit=100', { key: org.liveKey })).body.data.length as number;

async function rejection<T extends Error>(promise: Promise<unknown>, type: new (...args: never[]) => T): Promise<T> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof type, `expected ${type.name}, got ${String(err)}`);
    return err;
  }
  assert.fail(`expected ${type.name}, but the request succeeded`);
}

describe('OpenAI-compatible chat (official openai npm package)', function () {
  this.timeout(90_000);

  it('completes a chat with a system message, max_tokens and temperature, billed to the wallet on the tokens produced', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const before = await available(org);
    const completion = await clientFor(org.liveKey).chat.completions.create({
      model: 'gpt-5-mini',
      messages: [
        { role: 'system', content: 'You answer in one short sentence.' },
        { role: 'user', content: [{ type: 'text', text: 'Say hello #tokens:12' }] },
      ],
      max_tokens: 50,
      temperature: 0.3,
      n: 1,
      user: 'end-user-42',
    });
    assert.equal(completion.object, 'chat.completion');
    assert.equal(completion.model, 'gpt-5-mini');
    assert.equal(completion.choices.length, 1);
    assert.equal(completion.choices[0]!.message.role, 'assistant');
    assert.ok(completion.choices[0]!.message.content, 'the completion has text');
    assert.equal(completion.choices[0]!.finish_reason, 'stop');
    assert.equal(completion.usage?.completion_tokens, 12);
    assert.ok(completion.usage!.prompt_tokens > 0);
    assert.equal(completion.usage!.total_tokens, completion.usage!.prompt_tokens + 12);

    // The same workflow as POST /v1/chat: the system message is its system prompt, reserved on max_tokens.
    const row = await stack().knex('generations').where({ id: completion.id }).first();
    assert.equal(row.params.system_prompt, 'You answer in one short sentence.');
    assert.equal(row.params.temperature, 0.3);
    assert.equal(row.params.max_tokens, 50);
    const generation = (await call('GET', `/v1/generations/${completion.id}`, { key: org.liveKey })).body;
    assert.equal(generation.status, 'succeeded');
    assert.ok(generation.charged_credits > 0);
    assert.equal(generation.charged_credits + generation.refunded_credits, generation.reserved_credits);
    assert.equal(await available(org), before - generation.charged_credits);
    await assertMoneyInvariants(org.id);
    await assertLedgerBalanced(org.id);
  });

  it('finish_reason is length when the model wrote max_completion_tokens tokens', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const completion = await clientFor(org.liveKey).chat.completions.create({
      model: 'gpt-5-mini',
      messages: [{ role: 'user', content: 'Ramble #tokens:20' }],
      max_completion_tokens: 20,
    });
    assert.equal(completion.choices[0]!.finish_reason, 'length');
    await assertMoneyInvariants(org.id);
  });

  it('an idempotent retry (same Idempotency-Key) answers the same completion and is charged once', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const client = clientFor(org.liveKey);
    const body = { model: 'gpt-5-mini', messages: [{ role: 'user' as const, content: 'once only' }], max_tokens: 40 };
    const first = await client.chat.completions.create(body, { headers: { 'Idempotency-Key': 'oai-retry-1' } });
    const afterFirst = await available(org);
    const { data: second, response } = await client.chat.completions.create(body, { headers: { 'Idempotency-Key': 'oai-retry-1' } }).withResponse();
    assert.equal(response.headers.get('idempotent-replayed'), 'true');
    assert.equal(second.id, first.id);
    assert.equal(second.choices[0]!.message.content, first.choices[0]!.message.content);
    assert.equal(await available(org), afterFirst);
    assert.equal(await generationCount(org), 1);
    await assertMoneyInvariants(org.id);
  });

  it('n > 1 is refused with a BadRequestError naming n, and nothing is charged', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const err = await rejection(
      clientFor(org.liveKey).chat.completions.create({ model: 'gpt-5-mini', messages: [{ role: 'user', content: 'two please' }], n: 2 }),
      OpenAI.BadRequestError,
    );
    assert.equal(err.status, 400);
    assert.equal(err.param, 'n');
    assert.equal(err.type, 'invalid_request_error');
    assert.equal(await generationCount(org), 0);
    assert.equal(await available(org), 100_000);
    await assertLedgerBalanced(org.id);
  });

  it('stream: true is refused with a BadRequestError naming stream (no stream is faked)', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const err = await rejection(
      clientFor(org.liveKey).chat.completions.create({ model: 'gpt-5-mini', messages: [{ role: 'user', content: 'stream it' }], stream: true }),
      OpenAI.BadRequestError,
    );
    assert.equal(err.param, 'stream');
    assert.match(err.message, /Streaming is not supported/);
    assert.equal(await generationCount(org), 0);
  });

  it('an unknown model raises NotFoundError (404, as OpenAI answers), nothing charged', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const err = await rejection(clientFor(org.liveKey).chat.completions.create({ model: 'gpt-nonexistent', messages: [{ role: 'user', content: 'hi' }] }), OpenAI.NotFoundError);
    assert.equal(err.status, 404);
    assert.equal(err.code, 'unknown_model');
    assert.equal(err.param, 'model');
    assert.equal(await available(org), 100_000);
    await assertLedgerBalanced(org.id);
  });

  it('a model of another modality raises NotFoundError too', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const image = (await call('GET', '/v1/models?modality=image', { key: org.liveKey })).body.data[0].slug as string;
    const err = await rejection(clientFor(org.liveKey).chat.completions.create({ model: image, messages: [{ role: 'user', content: 'hi' }] }), OpenAI.NotFoundError);
    assert.equal(err.code, 'modality_mismatch');
  });

  it('a model the plan lacks raises NotFoundError plan_upgrade_required, as OpenAI answers a model one cannot use', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const err = await rejection(clientFor(org.liveKey).chat.completions.create({ model: 'claude-opus-4.1', messages: [{ role: 'user', content: 'hi' }] }), OpenAI.NotFoundError);
    assert.equal(err.code, 'plan_upgrade_required');
    assert.match(err.message, /needs a Studio or Team plan/);
    assert.equal(await generationCount(org), 0);
  });

  it('a key without the chat:write scope raises PermissionDeniedError, while it may list the models', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const created = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'images only', scopes: ['images:write'] } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const client = clientFor(created.body.secret as string);
    const err = await rejection(client.chat.completions.create({ model: 'gpt-5-mini', messages: [{ role: 'user', content: 'hi' }] }), OpenAI.PermissionDeniedError);
    assert.equal(err.status, 403);
    assert.match(err.message, /do not include chat:write/);
    assert.ok((await client.models.list()).data.length > 0);
  });

  it('a bad key raises AuthenticationError', async () => {
    const err = await rejection(
      clientFor('sk_live_not_a_real_key').chat.completions.create({ model: 'gpt-5-mini', messages: [{ role: 'user', content: 'hi' }] }),
      OpenAI.AuthenticationError,
    );
    assert.equal(err.status, 401);
    assert.equal(err.code, 'invalid_api_key');
    await rejection(clientFor('sk_live_not_a_real_key').models.list(), OpenAI.AuthenticationError);
  });

  it('an organization without the credits raises RateLimitError insufficient_quota with x-should-retry: false, nothing reserved', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 0 });
    const client = new OpenAI({ apiKey: org.liveKey, baseURL: `${stack().apiUrl}/v1/openai` }); // default retries: x-should-retry: false stops them
    const err = await rejection(client.chat.completions.create({ model: 'gpt-5-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 1000 }), OpenAI.RateLimitError);
    assert.equal(err.status, 429);
    assert.equal(err.type, 'insufficient_quota');
    assert.equal(err.code, 'insufficient_credits');
    assert.equal(err.headers.get('x-should-retry'), 'false');
    assert.equal(await generationCount(org), 0);
    await assertMoneyInvariants(org.id);
  });

  it('an unknown request field is refused by name, as OpenAI refuses it', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const err = await rejection(
      clientFor(org.liveKey).chat.completions.create({ model: 'gpt-5-mini', messages: [{ role: 'user', content: 'hi' }], logit_bias: { '50256': -100 } }),
      OpenAI.BadRequestError,
    );
    assert.equal(err.param, 'logit_bias');
  });

  it('GET /v1/openai/models lists the chat models as OpenAI model objects', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const models = [];
    for await (const model of clientFor(org.liveKey).models.list()) models.push(model);
    assert.ok(models.some((m) => m.id === 'gpt-5-mini'));
    assert.ok(models.every((m) => m.object === 'model' && typeof m.owned_by === 'string'));
    const catalog = (await call('GET', '/v1/models?modality=chat', { key: org.liveKey })).body.data as { slug: string }[];
    assert.deepEqual(models.map((m) => m.id).sort(), catalog.map((m) => m.slug).sort());
  });

  it('a key over its monthly budget raises RateLimitError insufficient_quota (budget_exceeded), nothing reserved', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const created = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'tight', scopes: ['chat:write'], monthly_budget_usd: 0.01 } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const err = await rejection(
      clientFor(created.body.secret as string).chat.completions.create({ model: 'gpt-5-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 8000 }),
      OpenAI.RateLimitError,
    );
    assert.equal(err.type, 'insufficient_quota');
    assert.equal(err.code, 'budget_exceeded');
    assert.equal(await available(org), 100_000);
    await assertMoneyInvariants(org.id);
  });

  it("a replay of a refused request (same Idempotency-Key) is in OpenAI's shape too", async () => {
    const org = await createOrganization({ plan: 'pro', credits: 0 });
    const client = clientFor(org.liveKey);
    const body = { model: 'gpt-5-mini', messages: [{ role: 'user' as const, content: 'hi' }], max_tokens: 1000 };
    await rejection(client.chat.completions.create(body, { headers: { 'Idempotency-Key': 'oai-poor-1' } }), OpenAI.RateLimitError);
    const replayed = await rejection(client.chat.completions.create(body, { headers: { 'Idempotency-Key': 'oai-poor-1' } }), OpenAI.RateLimitError);
    assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
    assert.equal(replayed.type, 'insufficient_quota');
    assert.equal(replayed.code, 'insufficient_credits');
    await assertMoneyInvariants(org.id);
  });

  it('a chat that fails raises InternalServerError generation_failed (502) naming its generation, refunded', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const err = await rejection(
      clientFor(org.liveKey).chat.completions.create({ model: 'gpt-5-mini', messages: [{ role: 'user', content: 'break #fail' }] }),
      OpenAI.InternalServerError,
    );
    assert.equal(err.status, 502);
    assert.equal(err.code, 'generation_failed');
    const id = /generation (gen_\w+)/.exec(err.message)?.[1];
    assert.ok(id, err.message);
    const generation = (await call('GET', `/v1/generations/${id}`, { key: org.liveKey })).body;
    assert.equal(generation.status, 'failed');
    assert.equal(generation.charged_credits, 0);
    assert.equal(await available(org), 100_000);
    await assertMoneyInvariants(org.id);
  });

  it('a chat still running when the sync window closes: 504 generation_still_running; the same Idempotency-Key later answers the completion, charged once', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const api = await startExtraApi({ syncTimeoutMs: 300 });
    const client = new OpenAI({ apiKey: org.liveKey, baseURL: `${api.url}/v1/openai`, maxRetries: 0 });
    const body = { model: 'gpt-5-mini', messages: [{ role: 'user' as const, content: 'slowly #slow:2000' }], max_tokens: 100 };
    const err = await rejection(client.chat.completions.create(body, { headers: { 'Idempotency-Key': 'oai-slow-1' } }), OpenAI.InternalServerError);
    assert.equal(err.status, 504);
    assert.equal(err.code, 'generation_still_running');
    assert.equal(err.headers.get('x-should-retry'), 'false');
    const id = /Generation (gen_\w+)/.exec(err.message)?.[1];
    assert.ok(id, err.message);
    await waitForGeneration(id, org.liveKey, ['succeeded']);
    const completion = await client.chat.completions.create(body, { headers: { 'Idempotency-Key': 'oai-slow-1' } });
    assert.equal(completion.id, id);
    assert.equal(await generationCount(org), 1);
    await assertMoneyInvariants(org.id);
  });
});
