import assert from 'node:assert/strict';
import { createAnthropicAdapter } from '../../../activities/providers/anthropic';
import { TEXT_ANSWER_CAP_BYTES } from '../../../activities/providers/capped-answers';
import { ProviderError } from '../../../activities/providers/types';
import { doneResult, jobFor, plainContext, providerError } from '../../fakes/openai-anthropic-jobs';
import { startFakeAnthropic, type FakeAnthropic } from '../../fakes/anthropic-server';

// The Anthropic adapter, driven through the official SDK against a local fake of the Messages API.

describe('Anthropic adapter', () => {
  let fake: FakeAnthropic;
  const anthropic = createAnthropicAdapter({ requestTimeoutMs: 10_000 });
  const impatient = createAnthropicAdapter({ requestTimeoutMs: 300 });
  const chat = (params: Record<string, unknown> = { messages: [{ content: 'Name a colour' }], max_tokens: 64 }) => jobFor('claude-haiku-4.5', fake, { params });

  before(async () => {
    fake = await startFakeAnthropic();
  });
  after(async () => {
    await fake.close();
  });

  it('answers a chat at once with the text and the tokens Anthropic reports', async () => {
    fake.script.reply('Teal.', { inputTokens: 30, outputTokens: 3 });
    const ctx = plainContext();
    const job = chat({
      messages: [{ content: 'Hi' }, { role: 'assistant', content: 'Hello!' }, { role: 'user', content: 'Name a colour' }],
      system_prompt: 'Answer in one word.',
      max_tokens: 256,
      temperature: 0.3,
    });
    const result = doneResult(await anthropic.submit(job, ctx));
    assert.deepEqual(result, { files: [], text: 'Teal.', usage: { outputTokens: 3, inputTokens: 30 } });

    const request = fake.received.at(-1)!;
    assert.equal(`${request.method} ${request.path}`, 'POST /v1/messages');
    assert.equal(request.apiKey, fake.apiKey);
    assert.ok(request.headers['anthropic-version'], 'the SDK sends its API version');
    assert.deepEqual(request.body, {
      model: 'claude-haiku-4-5-20251001',
      max_tokens: 256,
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'user', content: 'Name a colour' },
      ],
      // The API version the SDK speaks takes no sampling parameters, so temperature stays out.
      system: 'Answer in one word.',
    });
  });

  it('fails with provider_auth_failed, not retryable, when Anthropic refuses the key', async () => {
    const job = { ...chat(), credentials: { apiKey: 'sk-ant-wrong', baseUrl: fake.baseUrl } };
    await assert.rejects(
      anthropic.submit(job, plainContext()),
      providerError('provider_auth_failed', false, (err) => assert.match(err.message, /HTTP 401.*invalid x-api-key/)),
    );
  });

  it('fails with provider_rate_limited, retryable after the Retry-After, on a 429', async () => {
    fake.script.fail(429, { retryAfter: '2' });
    await assert.rejects(
      anthropic.submit(chat(), plainContext()),
      providerError('provider_rate_limited', true, (err) => assert.equal(err.opts.retryAfterMs, 2_000)),
    );
  });

  it('fails an overloaded 529 as a retryable provider_error without retrying itself, and the next call succeeds', async () => {
    fake.script.fail(529);
    const before = fake.received.length;
    await assert.rejects(
      anthropic.submit(chat(), plainContext()),
      providerError('provider_error', true, (err) => assert.match(err.message, /HTTP 529.*Overloaded \(overloaded_error\)/)),
    );
    assert.equal(fake.received.length - before, 1, "the SDK's own retries are off");
    assert.match(doneResult(await anthropic.submit(chat(), plainContext())).text!, /^Fake Claude answer to: Name a colour/);
  });

  it('fails with a retryable provider_timeout when Anthropic does not answer within the request timeout', async () => {
    fake.script.hang();
    const started = Date.now();
    await assert.rejects(impatient.submit(chat(), plainContext()), providerError('provider_timeout', true));
    assert.ok(Date.now() - started < 3_000, `gave up after ${Date.now() - started} ms`);
  });

  it('fails with a retryable provider_timeout when the answer starts but its body stalls', async () => {
    fake.script.stallBody();
    await assert.rejects(impatient.submit(chat(), plainContext()), providerError('provider_timeout', true));
  });

  it('stops a request at once when the activity is cancelled, passing the cancellation through', async () => {
    fake.script.hang();
    const cancel = new AbortController();
    const started = Date.now();
    setTimeout(() => cancel.abort(new Error('activity cancelled')), 100);
    await assert.rejects(anthropic.submit(chat(), plainContext({ signal: cancel.signal })), (err: unknown) => {
      assert.ok(!(err instanceof ProviderError), `not turned into a provider failure: ${String(err)}`);
      return true;
    });
    assert.ok(Date.now() - started < 2_000, `stopped after ${Date.now() - started} ms`);
  });

  it('fails a 400 as provider_rejected, not retryable, with Anthropic’s message', async () => {
    fake.script.fail(400, { message: 'messages: roles must alternate' });
    await assert.rejects(
      anthropic.submit(chat(), plainContext()),
      providerError('provider_rejected', false, (err) => assert.match(err.message, /roles must alternate \(invalid_request_error\)/)),
    );
  });

  it('stops reading an answer past the 16 MB a chat answer may take: output_too_large, not retryable', async () => {
    fake.script.reply('x'.repeat(TEXT_ANSWER_CAP_BYTES + 1));
    await assert.rejects(
      anthropic.submit(chat(), plainContext()),
      providerError('output_too_large', false, (err) => assert.match(err.message, /^Anthropic's answer was larger than 16 MB/)),
    );
  });

  it('fails with provider_bad_output on a cut-off JSON answer and on a message without content', async () => {
    fake.script.malformedOutput().missingOutput();
    await assert.rejects(
      anthropic.submit(chat(), plainContext()),
      providerError('provider_bad_output', false, (err) => assert.match(err.message, /not valid JSON/)),
    );
    await assert.rejects(
      anthropic.submit(chat(), plainContext()),
      providerError('provider_bad_output', false, (err) => assert.match(err.message, /no content/)),
    );
  });

  it('fails with content_policy_violation when Claude stops with a refusal', async () => {
    fake.script.refuse();
    await assert.rejects(anthropic.submit(chat(), plainContext()), providerError('content_policy_violation', false));
  });

  it('serves chat only: another modality is refused without calling Anthropic', async () => {
    const before = fake.received.length;
    const image = { ...jobFor('gpt-image-1', fake), route: { provider: 'anthropic' as const, model: 'claude-haiku-4-5' } };
    await assert.rejects(
      anthropic.submit(image, plainContext()),
      providerError('provider_rejected', false, (err) => assert.match(err.message, /not a chat model \(modality image\)/)),
    );
    assert.equal(fake.received.length, before);
  });

  it('has nothing to poll or cancel: poll is a clear gateway error, cancel does nothing', async () => {
    const before = fake.received.length;
    await assert.rejects(
      anthropic.poll(chat(), 'anything', plainContext()),
      providerError('provider_error', false, (err) => assert.equal(err.opts.source, 'gateway')),
    );
    await anthropic.cancel(chat(), 'anything');
    assert.equal(fake.received.length, before);
  });
});
