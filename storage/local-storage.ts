import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { mimeOfKey } from './mime';
import { readStream, type Storage } from './types';
import type { UrlSigner } from './url-signer';

const SAFE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

/**
 * Files under one directory; the API serves them under URLs signed by `signer` (decisions §6):
 * GET /files/<key> for downloads and PUT /files/<key> for uploads. A process that only writes
 * files (the worker) may leave out the signer; signing then fails loudly.
 */
export function createLocalStorage(rootDir: string, signer?: UrlSigner): Storage {
  const root = path.resolve(rootDir);
  const resolveKey = (key: string) => {
    if (!SAFE_KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
      throw new Error(`invalid storage key: ${key}`);
    }
    return path.join(root, key);
  };
  const requireSigner = () => {
    if (!signer) throw new Error('local storage signs file URLs with URL_SIGNING_SECRET, and none was given');
    return signer;
  };
  const open: Storage['open'] = async (key) => {
    let file: string;
    try {
      file = resolveKey(key);
    } catch {
      return undefined;
    }
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    return { stream: createReadStream(file), size: info.size, contentType: mimeOfKey(key) };
  };
  return {
    async put(key, data) {
      const file = resolveKey(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Write then rename, so a reader never sees half a file and a retried write is harmless.
      const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(tmp, data);
      await rename(tmp, file);
    },
    async putFile(key, source) {
      const file = resolveKey(key);
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
      await copyFile(source, tmp);
      await rename(tmp, file);
    },
    open,
    async delete(key) {
      await rm(resolveKey(key), { force: true });
    },
    async read(key) {
      const file = await open(key);
      return file ? readStream(file.stream) : undefined;
    },
    async presignPut(key, { contentType, sizeBytes, expiresInSeconds }) {
      resolveKey(key);
      const { url, expiresAt } = requireSigner().signPut(key, { contentType, maxBytes: sizeBytes }, { ttlSeconds: expiresInSeconds });
      return { url, method: 'PUT', headers: { 'Content-Type': contentType }, expiresAt };
    },
    async signedGetUrl(key) {
      return requireSigner().sign(key);
    },
    async servedGetUrl(key) {
      return requireSigner().sign(key);
    },
    async checkSignedUrl(url) {
      const key = requireSigner().keyOf(url);
      if (key === undefined) return { kind: 'foreign' };
      const valid = requireSigner().verify(key, url.searchParams.get('expires') ?? undefined, url.searchParams.get('signature') ?? undefined);
      return valid ? { kind: 'valid', key } : { kind: 'invalid' };
    },
  };
}
