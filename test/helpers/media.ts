import { NodeIO } from '@gltf-transform/core';
import sharp from 'sharp';
import { probe, type ProbeResult } from '../../lib/ffmpeg';

/** Downloads an output URL (signed, no API key) and returns its bytes and content type. */
export async function download(url: string): Promise<{ data: Buffer; type: string }> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
  return { data: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type') ?? '' };
}

export async function probeUrl(url: string): Promise<ProbeResult> {
  return probe((await download(url)).data);
}

export async function imageMeta(url: string) {
  return sharp((await download(url)).data).metadata();
}

export async function readGlb(url: string) {
  return new NodeIO().readBinary(new Uint8Array((await download(url)).data));
}
