import { createReadStream } from 'node:fs';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Storage } from './types';

const SAFE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

/** Files under one directory; the API serves them under signed URLs (decisions §6). */
export function createLocalStorage(rootDir: string): Storage {
  const root = path.resolve(rootDir);
  const resolveKey = (key: string) => {
    if (!SAFE_KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
      throw new Error(`invalid storage key: ${key}`);
    }
    return path.join(root, key);
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
    async open(key) {
      let file: string;
      try {
        file = resolveKey(key);
      } catch {
        return undefined;
      }
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) return undefined;
      return { stream: createReadStream(file), size: info.size };
    },
  };
}
