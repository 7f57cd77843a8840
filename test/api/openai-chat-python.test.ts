import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { call, createOrganization } from '../helpers/http';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { OPENAI_PYTHON_VERSION, ensureOpenAiPython } from '../helpers/openai-python';
import { stack } from '../helpers/stack';

// The OpenAI-compatible chat driven by the official `openai` Python package (issue 37 item 4): a
// Python script (test/python/openai_sdk_chat.py) completes a chat and meets the SDK's typed errors;
// the wallet shows the charge.

const run = promisify(execFile);
const SCRIPT = path.join(__dirname, '..', 'python', 'openai_sdk_chat.py');

describe('OpenAI-compatible chat (official openai Python package)', function () {
  this.timeout(60_000);
  let python: string;

  before(async function () {
    // A first run installs the package from PyPI into .cache/openai-python-venv.
    this.timeout(300_000);
    python = await ensureOpenAiPython();
  });

  it('completes a chat billed to the wallet, raises NotFoundError for an unknown model and BadRequestError for n > 1', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const { stdout } = await run(python, [SCRIPT], {
      env: { ...process.env, OPENAI_BASE_URL: `${stack().apiUrl}/v1/openai`, OPENAI_API_KEY: org.liveKey },
    });
    const out = JSON.parse(stdout) as {
      sdk_version: string;
      id: string;
      object: string;
      content: string;
      finish_reason: string;
      usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
      not_found: { status: number; code: string; param: string; type: string };
      refused_n: { status: number; param: string };
    };
    assert.equal(out.sdk_version, OPENAI_PYTHON_VERSION);
    assert.equal(out.object, 'chat.completion');
    assert.ok(out.content.length > 0);
    assert.equal(out.finish_reason, 'stop');
    assert.equal(out.usage.completion_tokens, 9);
    assert.equal(out.usage.total_tokens, out.usage.prompt_tokens + 9);
    assert.deepEqual(out.not_found, { status: 404, code: 'unknown_model', param: 'model', type: 'invalid_request_error' });
    assert.deepEqual(out.refused_n, { status: 400, param: 'n' });

    const generation = (await call('GET', `/v1/generations/${out.id}`, { key: org.liveKey })).body;
    assert.equal(generation.status, 'succeeded');
    assert.ok(generation.charged_credits > 0);
    const balance = (await call('GET', '/v1/balance', { key: org.liveKey })).body;
    assert.equal(balance.available_credits, 100_000 - generation.charged_credits);
    await assertMoneyInvariants(org.id);
  });
});
