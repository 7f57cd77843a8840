import assert from 'node:assert/strict';
import sharp from 'sharp';
import { call, type TestOrganization } from './http';

// Inputs made the way a client makes them: an upload through the API, not a row written by hand.

/** Uploads a solid-colour PNG as a client does (POST /v1/uploads, then PUT) and returns its file_url. */
export async function uploadImage(org: TestOrganization, image: { colour?: string; width?: number; height?: number } = {}): Promise<string> {
  const { colour = '#3366cc', width = 320, height = 200 } = image;
  const data = await sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
  const upload = await call('POST', '/v1/uploads', { key: org.liveKey, body: { filename: 'input.png', content_type: 'image/png', size_bytes: data.length } });
  assert.equal(upload.status, 201, JSON.stringify(upload.body));
  const put = await fetch(upload.body.upload_url, { method: 'PUT', headers: upload.body.headers, body: data });
  assert.equal(put.status, 200);
  return upload.body.file_url;
}
