import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { capAnswers } from '../../activities/providers/capped-answers';
import { ingestProviderFile } from '../../activities/providers/ingest-output';
import type { ProviderFile } from '../../activities/providers/types';
import type { Modality } from '../../domain/modalities';
import { runFfmpegToFile } from '../../lib/ffmpeg';
import { createLocalStorage } from '../../storage/local-storage';
import { failsWith } from '../helpers/provider-errors';

// How a provider's finished output is taken in when its download or its file goes wrong: an answer
// a retry may get past is retryable (the job is done and paid for), a file that is not what its
// modality needs is provider_bad_output.

describe('ingesting a provider output', () => {
  let dir: string;
  let server: http.Server;
  let baseUrl: string;
  const answers: ((res: http.ServerResponse) => void)[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ingest-test-'));
    server = http.createServer((_req, res) => (answers.shift() ?? ((r) => r.writeHead(404).end()))(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  let n = 0;
  const options = (modality: Modality) => ({
    provider: 'fal',
    modality,
    capBytes: 50 * 1024 * 1024,
    storage: createLocalStorage(dir),
    keyBase: `outputs/gen_ingest_${++n}/0`,
    signal: new AbortController().signal,
    timeoutMs: 10_000,
    allowPrivateAddresses: true,
  });
  const ingest = (file: ProviderFile, modality: Modality) => ingestProviderFile(file, options(modality));

  it('takes a streamed answer that its capped fetch cut off for what it is: output_too_large, nothing stored', async () => {
    // A speech body without a Content-Length, 64 KB, read through the adapters' fetch capped at 16 KB.
    const send = async () => new Response(new Blob([Buffer.alloc(64 * 1024, 1)]).stream(), { headers: { 'content-type': 'audio/mpeg' } });
    const answer = await capAnswers(send, 16 * 1024)('http://provider.invalid/speech');
    const keyBase = `outputs/gen_ingest_${++n}/0`;
    await assert.rejects(ingestProviderFile({ kind: 'stream', body: answer.body!, mime: 'audio/mpeg' }, { ...options('voice'), keyBase }), failsWith('output_too_large', false));
    assert.equal(await createLocalStorage(dir).read(`${keyBase}.mp3`), undefined);
  });

  it("retries a download answered 429 after the URL's Retry-After, and one answered 408", async () => {
    answers.push((res) => res.writeHead(429, { 'retry-after': '7' }).end());
    await assert.rejects(
      ingest({ kind: 'url', url: `${baseUrl}/out.mp4` }, 'video'),
      failsWith('provider_rate_limited', true, (err) => assert.equal(err.opts.retryAfterMs, 7_000)),
    );
    answers.push((res) => res.writeHead(408).end());
    await assert.rejects(ingest({ kind: 'url', url: `${baseUrl}/out.mp4` }, 'video'), failsWith('provider_timeout', true));
    answers.push((res) => res.writeHead(410).end());
    await assert.rejects(ingest({ kind: 'url', url: `${baseUrl}/out.mp4` }, 'video'), failsWith('provider_bad_output', false));
  });

  it('retries a download whose host does not resolve now, as unreachable', async () => {
    await assert.rejects(ingest({ kind: 'url', url: 'https://no-such-host.invalid/out.mp4' }, 'video'), failsWith('provider_unreachable', true));
  });

  it('refuses an MP4 with sound only as a video, and one with a picture only as music', async () => {
    const audioOnly = await runFfmpegToFile('mp4', (out) => ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-c:a', 'aac', out]);
    await assert.rejects(
      ingest({ kind: 'bytes', data: audioOnly, mime: 'video/mp4' }, 'video'),
      failsWith('provider_bad_output', false, (err) => assert.match(err.message, /no video stream/)),
    );
    const stored = await ingest({ kind: 'bytes', data: audioOnly, mime: 'audio/mp4' }, 'music');
    assert.ok(Number(stored.durationS) > 0, 'the same file is fine as music');

    const pictureOnly = await runFfmpegToFile('mp4', (out) => ['-f', 'lavfi', '-i', 'color=c=blue:s=64x64:d=1', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', out]);
    await assert.rejects(
      ingest({ kind: 'bytes', data: pictureOnly, mime: 'audio/mp4' }, 'music'),
      failsWith('provider_bad_output', false, (err) => assert.match(err.message, /no audio stream/)),
    );
  });
});
