import { badOutput } from './http-failure';
import { REPLICATE } from './replicate-client';
import type { ProviderFile } from './types';

// A succeeded prediction's `output` is whatever the model returns: a file URL, a list of them, or
// an object holding them (on replicate.delivery, expiring after an hour). Sync answers may carry a
// small file inline as a data: URL. Every file found becomes a ProviderFile, in order; the gateway
// fetches and checks them.

const MIME_BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
};

export function filesOfOutput(output: unknown): ProviderFile[] {
  if (output === null || output === undefined) throw badOutput(REPLICATE, 'the prediction succeeded without an output');
  const files: ProviderFile[] = [];
  collect(output, files, 0);
  if (files.length === 0) throw badOutput(REPLICATE, `its output holds no file URL (${describe(output)})`);
  return files;
}

/** Models nest files at most a couple of levels deep; the cap keeps a hostile answer cheap. */
const MAX_DEPTH = 4;

function collect(value: unknown, files: ProviderFile[], depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (typeof value === 'string') {
    const file = fileOf(value);
    if (file) files.push(file);
  } else if (Array.isArray(value)) {
    for (const item of value) collect(item, files, depth + 1);
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) collect(item, files, depth + 1);
  }
}

function fileOf(value: string): ProviderFile | undefined {
  if (value.startsWith('data:')) return fileOfDataUrl(value);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const mime = MIME_BY_EXTENSION[url.pathname.split('.').pop()?.toLowerCase() ?? ''];
  return { kind: 'url', url: value, ...(mime && { mime }) };
}

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?((?:;[\w-]+=[^;,]*)*);base64,(.*)$/s;

function fileOfDataUrl(value: string): ProviderFile {
  const match = DATA_URL.exec(value);
  if (!match) throw badOutput(REPLICATE, 'its output holds a data: URL that is not base64');
  const [, mime, , base64] = match;
  return { kind: 'bytes', data: Buffer.from(base64 ?? '', 'base64'), ...(mime && { mime }) };
}

function describe(output: unknown): string {
  const text = JSON.stringify(output) ?? String(output);
  return text.length > 80 ? `${text.slice(0, 80)}...` : text;
}
