import type { Readable } from 'node:stream';

/** Where output and upload files live. Keys are relative paths like `outputs/gen_x/0.png`. */
export interface Storage {
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** A readable stream of the file, or undefined when there is none. */
  open(key: string): Promise<{ stream: Readable; size: number } | undefined>;
}
