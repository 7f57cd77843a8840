import assert from 'node:assert/strict';
import { createInputFetcher } from '../../../api/admission/inputs';
import type { KeyPrincipal } from '../../../db/repos/api-keys';
import { hashSecret } from '../../../domain/api-key-secret';
import type { Storage } from '../../../storage/types';
import { call, createOrganization, type TestOrganization } from '../../helpers/http';
import { stack } from '../../helpers/stack';
import { uploadImage } from '../../helpers/uploads';

// createInputFetcher (issue 10): a comparison sends one image_url to many models; the request
// fetches and stores it once. The inputs here are uploads (this service's own signed file URLs),
// which the fetcher reads from storage, so counting storage reads counts fetches.

/** The real storage, counting the files read (fetches of inputs) and written (stored copies). */
function countingStorage(storage: Storage) {
  const counts = { opened: 0, stored: 0 };
  const counted: Storage = {
    ...storage,
    open: (key) => {
      counts.opened++;
      return storage.open(key);
    },
    put: (key, data, contentType) => {
      counts.stored++;
      return storage.put(key, data, contentType);
    },
  };
  return { counts, storage: counted };
}

describe('the input fetcher', () => {
  let org: TestOrganization;
  let principal: KeyPrincipal;
  before(async () => {
    org = await createOrganization();
    principal = (await stack().repos.apiKeys.findPrincipalBySecretHash(hashSecret(org.liveKey)))!;
  });

  it('fetches and stores a URL once however many models of the request ask for it', async () => {
    const url = await uploadImage(org, { colour: '#e02020', width: 32, height: 32 });
    const { counts, storage } = countingStorage(stack().apiDeps.storage);
    const fetchInput = createInputFetcher({ storage, allowPrivateInputUrls: false }, principal);

    const [first, second] = await Promise.all([fetchInput(url, 'image', 'image_url'), fetchInput(url, 'image', 'image_url')]);
    const third = await fetchInput(url, 'image', 'image_url');

    assert.deepEqual(counts, { opened: 1, stored: 1 });
    assert.equal(second.storageKey, first.storageKey);
    assert.equal(third.storageKey, first.storageKey);
    assert.equal(first.contentType, 'image/png');
    assert.deepEqual(await stack().apiDeps.storage.read(first.storageKey), first.data);
  });

  it('fetches different URLs separately, and each request anew', async () => {
    const red = await uploadImage(org, { colour: '#e02020', width: 32, height: 32 });
    const blue = await uploadImage(org, { colour: '#2040e0', width: 32, height: 32 });
    const { counts, storage } = countingStorage(stack().apiDeps.storage);
    const deps = { storage, allowPrivateInputUrls: false };
    const fetchInput = createInputFetcher(deps, principal);

    const redInput = await fetchInput(red, 'image', 'image_url');
    const blueInput = await fetchInput(blue, 'image', 'image_url');
    const nextRequestsRed = await createInputFetcher(deps, principal)(red, 'image', 'image_url');

    assert.deepEqual(counts, { opened: 3, stored: 3 });
    assert.equal(new Set([redInput.storageKey, blueInput.storageKey, nextRequestsRed.storageKey]).size, 3);
  });

  it('answers every caller of a URL that cannot be fetched with the same 400, trying it once', async () => {
    // An upload whose file was never PUT: the URL is valid, the file is not there.
    const upload = await call('POST', '/v1/uploads', { key: org.liveKey, body: { filename: 'never.png', content_type: 'image/png', size_bytes: 100 } });
    assert.equal(upload.status, 201, JSON.stringify(upload.body));
    const { counts, storage } = countingStorage(stack().apiDeps.storage);
    const fetchInput = createInputFetcher({ storage, allowPrivateInputUrls: false }, principal);

    for (let i = 0; i < 2; i++) {
      await assert.rejects(fetchInput(upload.body.file_url, 'image', 'image_url'), {
        status: 400,
        code: 'validation_failed',
        param: 'image_url',
        message: /no file exists at this URL yet/,
      });
    }
    assert.deepEqual(counts, { opened: 1, stored: 0 });
  });
});
