import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { pythonClientTestVenv } from '../../clients/python-test-venv';
import { call, createOrganization, type TestOrganization } from '../helpers/http';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { stack } from '../helpers/stack';

// The Python client's own suite (clients/python/tests, pytest) against the running test stack: the
// client is pip-installed from clients/python into the project's test venv, and this hands pytest
// the API's URL, keys of organizations made through the operator API, and the receiver certificate
// the stack trusts for webhook deliveries. pytest's output is the failure message.

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

describe('the Python client (pytest against the running service)', function () {
  this.timeout(600_000);
  const orgs: TestOrganization[] = [];
  let scratch: string;

  before(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), 'python-client-'));
  });

  after(async () => {
    for (const org of orgs) await assertMoneyInvariants(org.id);
    await rm(scratch, { recursive: true, force: true });
  });

  it('passes clients/python/tests: every modality, a comparison, a verified webhook, idempotency, typed 402 and 429, sync and async', async () => {
    const python = await pythonClientTestVenv();
    const funded = await createOrganization({ credits: 1_000_000 });
    const empty = await createOrganization({ credits: 0 });
    const limited = await createOrganization();
    orgs.push(funded, empty, limited);
    const limit = await call('PATCH', `/admin/v1/organizations/${limited.id}`, { key: stack().adminToken, body: { rate_limit_per_minute: 60 } });
    assert.equal(limit.status, 200, JSON.stringify(limit.body));
    const certFile = path.join(scratch, 'receiver.crt');
    const keyFile = path.join(scratch, 'receiver.key');
    await writeFile(certFile, stack().receiverCertificate.cert);
    await writeFile(keyFile, stack().receiverCertificate.key, { mode: 0o600 });

    let output: string;
    try {
      ({ stdout: output } = await run(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'clients/python/tests'], {
        cwd: ROOT,
        maxBuffer: 16 * 2 ** 20,
        timeout: 540_000,
        env: {
          ...process.env,
          GS_BASE_URL: stack().apiUrl,
          GS_API_KEY: funded.liveKey,
          GS_EMPTY_WALLET_KEY: empty.liveKey,
          GS_RATE_LIMITED_KEY: limited.liveKey,
          GS_RECEIVER_CERT_FILE: certFile,
          GS_RECEIVER_KEY_FILE: keyFile,
        },
      }));
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      assert.fail(`pytest failed:\n${e.stdout ?? ''}${e.stderr ?? ''}\n${e.message.split('\n')[0]}`);
    }
    // Nothing skipped or deselected: the summary is only "N passed".
    assert.match(output, /^\d+ passed in /m, output);
  });
});
