import { spawn } from 'node:child_process';
import { accessSync, chmodSync, constants, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import ffprobeInstaller from '@ffprobe-installer/ffprobe';

// The one place that spawns ffmpeg and ffprobe: static binaries shipped by npm packages, so
// nothing needs installing on the host. The simulator renders with them; the API probes input
// durations with them.

const DEFAULT_TIMEOUT_MS = 60_000;
const STDERR_TAIL_CHARS = 2_000;

/** Output flags that leave out encoder version tags, so the bytes depend only on the input. */
export const BITEXACT = ['-map_metadata', '-1', '-fflags', '+bitexact', '-flags', '+bitexact'];

/** What ffprobe reports, as far as the simulator reads it. */
export interface ProbeResult {
  format: { format_name?: string; duration?: string; size?: string };
  streams: ProbeStream[];
}

export interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  sample_rate?: string;
  channels?: number;
  duration?: string;
}

/**
 * ffmpeg or ffprobe failed: `exitCode` is set when it ran and refused (bad input or arguments),
 * null when it could not start or ran out of time; `stderrTail` is the end of what it said.
 */
export class FfmpegError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderrTail: string,
  ) {
    super(stderrTail ? `${message}: ${stderrTail}` : message);
    this.name = 'FfmpegError';
  }
}

/** Runs ffmpeg with `args` (after quiet logging flags), feeding `stdin`, and returns its stdout. */
export function runFfmpeg(args: readonly string[], stdin?: Buffer, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Buffer> {
  const quiet = ['-hide_banner', '-loglevel', 'error', '-nostats'];
  return run(binary(ffmpegInstaller.path), [...quiet, ...(stdin ? [] : ['-nostdin']), ...args], stdin, timeoutMs);
}

/**
 * Runs ffmpeg writing to a temporary file and returns the file's bytes. Muxers that go back to
 * fill in a header (MP4 faststart, the WAV sizes, the MP3 Xing/LAME frame) need a seekable output.
 * `inputFiles` are written next to it first, for inputs beyond the one stdin carries; `buildArgs`
 * gets their paths by name.
 */
export async function runFfmpegToFile(
  extension: string,
  buildArgs: (outputPath: string, inputPaths: Record<string, string>) => string[],
  stdin?: Buffer,
  timeoutMs = DEFAULT_TIMEOUT_MS,
  inputFiles: Readonly<Record<string, Buffer>> = {},
): Promise<Buffer> {
  return withTempDir(async (dir) => {
    const output = join(dir, `out.${extension}`);
    const inputPaths: Record<string, string> = {};
    for (const [name, data] of Object.entries(inputFiles)) {
      inputPaths[name] = join(dir, `in-${name}`);
      await writeFile(inputPaths[name], data);
    }
    await runFfmpeg(['-y', ...buildArgs(output, inputPaths)], stdin, timeoutMs);
    return readFile(output);
  });
}

/** ffprobe's format and streams for a file path or for bytes (written to a temporary file). */
export async function probe(input: Buffer | string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<ProbeResult> {
  if (Buffer.isBuffer(input)) {
    return withTempDir(async (dir) => {
      const path = join(dir, 'input');
      await writeFile(path, input);
      return probe(path, timeoutMs);
    });
  }
  const args = ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', input];
  const stdout = await run(binary(ffprobeInstaller.path), args, undefined, timeoutMs);
  const parsed = JSON.parse(stdout.toString('utf8')) as Partial<ProbeResult>;
  return { format: parsed.format ?? {}, streams: parsed.streams ?? [] };
}

async function withTempDir<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'simulator-media-'));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const checked = new Set<string>();

/** Makes sure the packaged binary can be executed, whether or not its install script ran. */
function binary(path: string): string {
  if (checked.has(path)) return path;
  try {
    accessSync(path, constants.X_OK);
  } catch {
    chmodSync(path, statSync(path).mode | 0o755);
  }
  checked.add(path);
  return path;
}

function run(command: string, args: readonly string[], stdin: Buffer | undefined, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    const name = command.split('/').pop() ?? command;
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new FfmpegError(`${name} could not start (${err.message})`, null, ''));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const tail = stderr.trim();
      if (timedOut) reject(new FfmpegError(`${name} timed out after ${timeoutMs} ms`, null, tail));
      else if (code !== 0) reject(new FfmpegError(`${name} exited with ${code ?? signal}`, code, tail));
      else resolve(Buffer.concat(stdout));
    });
    // ffmpeg may exit before reading everything (bad input); its exit code tells the story.
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}
