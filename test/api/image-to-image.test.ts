import assert from 'node:assert/strict';
import sharp from 'sharp';
import { findModel } from '../../domain/catalog';
import { estimateImageCredits } from '../../domain/pricing';
import { call, createOrganization, type TestOrganization } from '../helpers/http';
import { assertLedgerBalanced, ledgerKinds } from '../helpers/ledger';
import { download } from '../helpers/media';
import { uploadImage } from '../helpers/uploads';

// POST /v1/images with image_url (issue 9, item 11): image-to-image on the models that have the
// capability, priced as the model's images, with an output that visibly comes from its input.

/** The mean red, green and blue of an output image. */
async function meanColour(url: string): Promise<number[]> {
  const stats = await sharp((await download(url)).data).stats();
  return stats.channels.slice(0, 3).map((c) => c.mean);
}

describe('POST /v1/images with image_url (image-to-image)', function () {
  this.timeout(60_000);
  let org: TestOrganization;
  before(async () => {
    org = await createOrganization();
  });
  after(() => assertLedgerBalanced(org.id));

  it('makes an image from an uploaded image at the requested size, priced as the model prices its images', async () => {
    const imageUrl = await uploadImage(org, { colour: '#e02020' });
    const body = { model: 'flux-dev', prompt: 'the same scene at dusk', image_url: imageUrl, aspect_ratio: '16:9' };
    const res = await call('POST', '/v1/images', { key: org.liveKey, body });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'succeeded');
    assert.equal(res.body.params.image_url, imageUrl);
    const price = estimateImageCredits(findModel('flux-dev')!, { numOutputs: 1, width: 1344, height: 756 }, 'pro');
    assert.equal(res.body.reserved_credits, price);
    assert.equal(res.body.charged_credits, price);
    assert.deepEqual(await ledgerKinds(res.body.id), ['reserve', 'capture']);

    const [output] = res.body.outputs;
    const meta = await sharp((await download(output.url)).data).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', 1344, 756]);
    const [red, green, blue] = await meanColour(output.url);
    assert.ok(red! > green! + 40 && red! > blue! + 40, `a red input gives a red output, got ${[red, green, blue]}`);
  });

  it('gives measurably different outputs for different inputs, and the same output for the same input and seed', async () => {
    const request = (imageUrl: string, key: string) =>
      call('POST', '/v1/images', { key, body: { model: 'gpt-image-1', prompt: 'as a watercolour', image_url: imageUrl, seed: 11 } });
    const red = await request(await uploadImage(org, { colour: '#e02020' }), org.liveKey);
    const blueUrl = await uploadImage(org, { colour: '#2040e0' });
    const blue = await request(blueUrl, org.liveKey);
    assert.equal(blue.body.cache_hit, false);
    const [redMean, blueMean] = [await meanColour(red.body.outputs[0].url), await meanColour(blue.body.outputs[0].url)];
    assert.ok(redMean[0]! - blueMean[0]! > 80 && blueMean[2]! - redMean[2]! > 80, `red ${redMean} against blue ${blueMean}`);

    // Another organization (the cache never crosses organizations) with the same input and seed.
    const other = await createOrganization();
    const again = await request(blueUrl, other.liveKey);
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.cache_hit, false);
    assert.deepEqual((await download(again.body.outputs[0].url)).data, (await download(blue.body.outputs[0].url)).data);
    await assertLedgerBalanced(other.id);
  });

  it('tints every output of a multi-output request differently, each from the same input', async () => {
    const res = await call('POST', '/v1/images', {
      key: org.liveKey,
      body: { model: 'flux-dev', prompt: 'variations', image_url: await uploadImage(org, { colour: '#20c040' }), num_outputs: 2, seed: 3 },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const [first, second] = await Promise.all(res.body.outputs.map((o: { url: string }) => download(o.url)));
    assert.notDeepEqual(first!.data, second!.data);
    for (const output of res.body.outputs) {
      const [red, green, blue] = await meanColour(output.url);
      assert.ok(green! > red! && green! > blue!, `a green input gives green outputs, got ${[red, green, blue]}`);
    }
  });

  it('refuses image_url on a model without image_to_image, fetching and charging nothing', async () => {
    const res = await call('POST', '/v1/images', {
      key: org.liveKey,
      body: { model: 'imagen-4', prompt: 'x', image_url: await uploadImage(org, { colour: '#808080' }) },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'capability_not_supported');
    assert.equal(res.body.error.param, 'image_url');
    assert.match(res.body.error.message, /image_to_image/);
  });

  it('refuses an image_url that is not a decodable image', async () => {
    const upload = await call('POST', '/v1/uploads', { key: org.liveKey, body: { filename: 'x.png', content_type: 'image/png', size_bytes: 10 } });
    await fetch(upload.body.upload_url, { method: 'PUT', headers: upload.body.headers, body: Buffer.from('not a png!') });
    const res = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-dev', prompt: 'x', image_url: upload.body.file_url } });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'validation_failed');
    assert.equal(res.body.error.param, 'image_url');
  });
});
