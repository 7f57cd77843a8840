import assert from 'node:assert/strict';
import { TEXT_ANSWER_CAP_BYTES } from '../../../activities/providers/capped-answers';
import { createOpenAIAdapter } from '../../../activities/providers/openai';
import { ProviderError } from '../../../activities/providers/types';
import { doneResult, jobFor, plainContext, providerError } from '../../fakes/openai-anthropic-jobs';
import { startFakeOpenAI, type FakeOpenAI } from '../../fakes/openai-server';

// The OpenAI adapter's chat, and how every OpenAI request fails, driven through the official SDK
// against a local fake of OpenAI's API.

describe('OpenAI adapter: chat and failures', () => {
  let fake: FakeOpenAI;
  const openai = createOpenAIAdapter({ requestTimeoutMs: 10_000 });
  const impatient = createOpenAIAdapter({ requestTimeoutMs: 300 });
  const chat = (params: Record<string, unknown> = { messages: [{ content: 'Name a colour' }], max_tokens: 64 }) => jobFor('gpt-5', fake, { params });

  before(async () => {
    fake = await startFakeOpenAI();
  });
  after(async () => {
    await fake.close();
  });

  it('answers a chat at once with the first choice text and the tokens OpenAI reports', async () => {
    fake.script.reply('Blue.', { inputTokens: 21, outputTokens: 2 });
    const ctx = plainContext();
    const job = chat({
      messages: [{ content: 'Hi' }, { role: 'assistant', content: 'Hello! How can I help?' }, { role: 'user', content: 'Name a colour' }],
      system_prompt: 'Answer in one word.',
      max_tokens: 50,
      temperature: 0.5,
    });
    const result = doneResult(await openai.submit(job, ctx));
    assert.deepEqual(result, { files: [], text: 'Blue.', usage: { outputTokens: 2, inputTokens: 21 } });

    const request = fake.received.at(-1)!;
    assert.equal(`${request.method} ${request.path}`, 'POST /v1/chat/completions');
    assert.equal(request.headers.authorization, `Bearer ${fake.apiKey}`);
    assert.equal(request.headers['openai-organization'], undefined, 'no organization header from the environment');
    assert.deepEqual(request.body, {
      model: 'gpt-5',
      messages: [
        { role: 'system', content: 'Answer in one word.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello! How can I help?' },
        { role: 'user', content: 'Name a colour' },
      ],
      // A reasoning model takes max_completion_tokens and only its default temperature.
      max_completion_tokens: 50,
    });
  });

  it('calls the model id of the route, not the catalog slug', async () => {
    const job = { ...chat(), route: { provider: 'openai' as const, model: 'gpt-5-2025-08-07' } };
    doneResult(await openai.submit(job, plainContext()));
    assert.equal(fake.received.at(-1)!.body?.model, 'gpt-5-2025-08-07');
  });

  it('fails with provider_auth_failed, not retryable, when OpenAI refuses the key', async () => {
    const job = { ...chat(), credentials: { apiKey: 'sk-wrong', baseUrl: fake.baseUrl } };
    await assert.rejects(
      openai.submit(job, plainContext()),
      providerError('provider_auth_failed', false, (err) => assert.match(err.message, /HTTP 401.*Incorrect API key/)),
    );
    assert.equal(fake.received.at(-1)!.headers.authorization, 'Bearer sk-wrong');
  });

  it('fails with provider_rate_limited, retryable after the Retry-After, on a 429', async () => {
    fake.script.fail(429, { retryAfter: '2' });
    await assert.rejects(
      openai.submit(chat(), plainContext()),
      providerError('provider_rate_limited', true, (err) => assert.equal(err.opts.retryAfterMs, 2_000)),
    );
  });

  it('fails a 503 as a retryable provider_error without retrying itself, and the next call succeeds', async () => {
    fake.script.fail(503);
    const before = fake.received.length;
    await assert.rejects(openai.submit(chat(), plainContext()), providerError('provider_error', true));
    assert.equal(fake.received.length - before, 1, "the SDK's own retries are off");
    const result = doneResult(await openai.submit(chat(), plainContext()));
    assert.match(result.text!, /^Fake answer to: Name a colour/);
  });

  it('fails with a retryable provider_timeout when OpenAI does not answer within the request timeout', async () => {
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
    await assert.rejects(openai.submit(chat(), plainContext({ signal: cancel.signal })), (err: unknown) => {
      assert.ok(!(err instanceof ProviderError), `not turned into a provider failure: ${String(err)}`);
      return true;
    });
    assert.ok(Date.now() - started < 2_000, `stopped after ${Date.now() - started} ms`);
  });

  it('fails with a retryable provider_unreachable when nothing listens at the base URL: the root cause for the log, not in the message', async () => {
    const gone = await startFakeOpenAI();
    await gone.close();
    const job = { ...chat(), credentials: { apiKey: gone.apiKey, baseUrl: gone.baseUrl } };
    const { hostname, port } = new URL(gone.baseUrl);
    await assert.rejects(
      openai.submit(job, plainContext()),
      providerError('provider_unreachable', true, (err) => {
        assert.match(err.opts.internalDetail ?? '', /ECONNREFUSED/);
        assert.ok(!err.message.includes(hostname) && !err.message.includes(port) && !/ECONNREFUSED/.test(err.message), err.message);
      }),
    );
  });

  it('fails a 400 as provider_rejected, not retryable, with OpenAI’s message', async () => {
    fake.script.fail(400, { message: "Invalid type for 'messages[0].content'." });
    await assert.rejects(
      openai.submit(chat(), plainContext()),
      providerError('provider_rejected', false, (err) => assert.match(err.message, /messages\[0\]\.content/)),
    );
  });

  it('stops reading an answer past the 16 MB a chat answer may take: output_too_large, not retryable', async () => {
    fake.script.reply('x'.repeat(TEXT_ANSWER_CAP_BYTES + 1));
    await assert.rejects(
      openai.submit(chat(), plainContext()),
      providerError('output_too_large', false, (err) => assert.match(err.message, /^OpenAI's answer was larger than 16 MB/)),
    );
  });

  it('fails with provider_bad_output on a cut-off JSON answer and on an answer without choices', async () => {
    fake.script.malformedOutput().missingOutput();
    await assert.rejects(
      openai.submit(chat(), plainContext()),
      providerError('provider_bad_output', false, (err) => assert.match(err.message, /not valid JSON/)),
    );
    await assert.rejects(
      openai.submit(chat(), plainContext()),
      providerError('provider_bad_output', false, (err) => assert.match(err.message, /no choices/)),
    );
  });

  it('fails with content_policy_violation on a refusal and on a content-filtered answer', async () => {
    fake.script.refuse().contentFilter();
    await assert.rejects(
      openai.submit(chat(), plainContext()),
      providerError('content_policy_violation', false, (err) => assert.match(err.message, /can't help/)),
    );
    await assert.rejects(openai.submit(chat(), plainContext()), providerError('content_policy_violation', false));
  });

  it('refuses a modality OpenAI has no model for without calling it', async () => {
    const before = fake.received.length;
    const video = { ...jobFor('gpt-5', fake), model: { ...jobFor('gpt-5', fake).model, slug: 'some-video', modality: 'video' as const } };
    await assert.rejects(
      openai.submit(video, plainContext()),
      providerError('provider_rejected', false, (err) => assert.match(err.message, /some-video is not one of them \(modality video\)/)),
    );
    assert.equal(fake.received.length, before);
  });

  it('has nothing to poll or cancel: poll is a clear gateway error, cancel does nothing', async () => {
    const before = fake.received.length;
    await assert.rejects(
      openai.poll(chat(), 'anything', plainContext()),
      providerError('provider_error', false, (err) => {
        assert.match(err.message, /answers at once/);
        assert.equal(err.opts.source, 'gateway');
      }),
    );
    await openai.cancel(chat(), 'anything');
    assert.equal(fake.received.length, before);
  });
});
