import { ConfigError, type Config } from '../lib/config';
import { createLocalStorage } from './local-storage';
import type { Storage } from './types';

export function createStorage(config: Pick<Config, 'storage' | 'localStorageDir'>): Storage {
  if (config.storage === 's3') {
    // S3-compatible storage is its own piece of work (issue #5); refusing beats pretending.
    throw new ConfigError('STORAGE=s3 is not supported by this version yet; use STORAGE=local.');
  }
  return createLocalStorage(config.localStorageDir);
}
