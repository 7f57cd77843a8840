import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { createOpenAICompatibleAdapter } from '../../../activities/providers/openai';
import { doneResult, jobFor, plainContext, providerError } from '../../fakes/openai-anthropic-jobs';
import { startFakeOpenAI, type FakeOpenAI } from '../../fakes/openai-server';

// The same adapter under the name openai_compatible: chat on any server that speaks OpenAI's
// protocol (vLLM, Ollama, LocalAI, a gateway), here a local fake of it.

describe('OpenAI-compatible adapter', () => {
  let fake: FakeOpenAI;
  const compatible = createOpenAICompatibleAdapter({ requestTimeoutMs: 10_000 });
  const llama = (params: Record<string, unknown> = { messages: [{ content: 'Hi' }], max_tokens: 64, temperature: 0.7 }) => jobFor('llama-3.3-70b', fake, { params });

  before(async () => {
    fake = await startFakeOpenAI();
  });
  after(async () => {
    await fake.close();
  });

  it('is named openai_compatible', () => {
    assert.equal(compatible.name, 'openai_compatible');
  });

  it('sends max_tokens and temperature as such servers know them, and returns the reported tokens', async () => {
    fake.script.reply('Hello! How can I help?', { inputTokens: 9, outputTokens: 7 });
    const result = doneResult(await compatible.submit(llama(), plainContext()));
    assert.deepEqual(result, { files: [], text: 'Hello! How can I help?', usage: { outputTokens: 7, inputTokens: 9 } });
    assert.deepEqual(fake.received.at(-1)!.body, {
      model: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
      messages: [{ role: 'user', content: 'Hi' }],
      max_tokens: 64,
      temperature: 0.7,
    });
  });

  it('returns no usage when the server reports none, so the gateway counts the tokens itself', async () => {
    fake.script.noUsage();
    const result = doneResult(await compatible.submit(llama(), plainContext()));
    assert.equal(result.usage, undefined);
    assert.match(result.text!, /^Fake answer to: Hi/);
  });

  it('sends no Authorization header to a server configured without a key', async () => {
    const keyless = await startFakeOpenAI({ apiKey: '' });
    try {
      const job = { ...llama(), credentials: { apiKey: '', baseUrl: keyless.baseUrl } };
      doneResult(await compatible.submit(job, plainContext()));
      assert.equal(keyless.received.at(-1)!.headers.authorization, undefined);
    } finally {
      await keyless.close();
    }
  });

  it('names the server in its failures', async () => {
    fake.script.fail(502);
    await assert.rejects(
      compatible.submit(llama(), plainContext()),
      providerError('provider_error', true, (err) => assert.match(err.message, /^The OpenAI-compatible server failed \(HTTP 502\)/)),
    );
  });

  it('serves chat only: another modality is refused, not retried, without calling the server', async () => {
    const before = fake.received.length;
    const image = { ...jobFor('gpt-image-1', fake), route: { provider: 'openai_compatible' as const, model: 'some-image-model' } };
    await assert.rejects(
      compatible.submit(image, plainContext()),
      providerError('provider_rejected', false, (err) => assert.match(err.message, /chat only; gpt-image-1 is not a chat model \(modality image\)/)),
    );
    assert.equal(fake.received.length, before);
  });

  it('works against the fake run as its own process, as the chat benchmark runs it', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/fakes/openai-server.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
      const { baseUrl, apiKey } = JSON.parse(line) as { baseUrl: string; apiKey: string };
      const job = { ...llama(), credentials: { apiKey, baseUrl } };
      assert.match(doneResult(await compatible.submit(job, plainContext())).text!, /^Fake answer to: Hi/);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
