import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '../../lib/free-port';
import { ensurePythonTool } from '../../lib/python-venv';

// LiteLLM's proxy, the gateway people would pick instead of ours for chat, run by bench:chat in
// front of the same fake upstream as our API so the two are compared on one machine in one run.
// The bench installs a pinned version itself, with pip into a git-ignored virtualenv
// (.cache/litellm-venv), on first run, and reuses it after. The proxy runs as LiteLLM documents a
// minimal deployment: `litellm --config`, one uvicorn worker, a master key, and no database (so it
// keeps no spend logs and no virtual keys: it meters nothing durably).

/** The version measured; a different one is installed over it when this changes. */
export const LITELLM_VERSION = '1.106.2';

const ROOT = path.resolve(__dirname, '..', '..');
const VENV = path.join(ROOT, '.cache', 'litellm-venv');
const READY_TIMEOUT_MS = 180_000;
const TAIL_CHARS = 4_000;

/** Makes sure .cache/litellm-venv holds litellm[proxy]==LITELLM_VERSION. */
export async function ensureLiteLLM(say: (line: string) => void): Promise<void> {
  await ensurePythonTool(
    {
      distribution: 'litellm',
      version: LITELLM_VERSION,
      venv: VENV,
      executable: 'litellm',
      pipArgs: [`litellm[proxy]==${LITELLM_VERSION}`],
      firstInstallTakes: 'a few minutes',
    },
    say,
  );
}

export interface LiteLLMProxy {
  /** The proxy's OpenAI-compatible base URL (POST {baseUrl}/chat/completions). */
  baseUrl: string;
  /** The proxy's master key, sent as the Bearer token. */
  masterKey: string;
  pid: number;
  /** Set once the proxy has exited without being stopped: the figures are then void. */
  exitedUnexpectedly(): string | undefined;
  tail(): string;
  /** SIGTERM, and SIGKILL if it has not exited after 10 s. */
  stop(): Promise<void>;
}

export interface LiteLLMRoute {
  /** The name clients ask for. */
  modelName: string;
  /** The upstream's own model name (sent as `openai/<name>`: the OpenAI-compatible provider). */
  upstreamModel: string;
  upstreamBaseUrl: string;
  upstreamApiKey: string;
}

/** Starts `litellm --config` with one route to an OpenAI-compatible upstream, in `dir`; resolves once /health/liveliness answers. */
export async function startLiteLLMProxy(route: LiteLLMRoute, dir: string): Promise<LiteLLMProxy> {
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  const masterKey = 'sk-bench-litellm-master';
  const configFile = path.join(dir, 'litellm-config.yaml');
  // JSON is YAML: no quoting rules to get wrong.
  const config = {
    model_list: [
      {
        model_name: route.modelName,
        litellm_params: { model: `openai/${route.upstreamModel}`, api_base: route.upstreamBaseUrl, api_key: route.upstreamApiKey },
      },
    ],
    general_settings: { master_key: masterKey },
  };
  await writeFile(configFile, JSON.stringify(config, null, 2));
  const child = spawn(path.join(VENV, 'bin', 'litellm'), ['--config', configFile, '--host', '127.0.0.1', '--port', String(port), '--num_workers', '1'], {
    cwd: dir,
    // A clean environment: no DATABASE_URL or provider keys leak in from the bench's own.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      // The model cost map ships in the package; fetching it from GitHub at start is not part of the proxy's cost.
      LITELLM_LOCAL_MODEL_COST_MAP: 'True',
      LITELLM_TELEMETRY: 'False',
      // Its banner and per-request lines at their defaults, as a deployment would log.
      PYTHONUNBUFFERED: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  let stopping = false;
  let unexpected: string | undefined;
  const onData = (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-TAIL_CHARS));
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', (code, signal) => {
    process.off('exit', killOnExit);
    if (!stopping) unexpected = `the LiteLLM proxy (pid ${child.pid}) exited by itself (code ${code}, signal ${signal}): ${tail.slice(-1500)}`;
  });

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (unexpected) throw new Error(unexpected);
    const ok = await fetch(`${baseUrl}/health/liveliness`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the LiteLLM proxy did not answer /health/liveliness within ${READY_TIMEOUT_MS} ms: ${tail.slice(-1500)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }

  return {
    baseUrl,
    masterKey,
    pid: child.pid!,
    exitedUnexpectedly: () => unexpected,
    tail: () => tail,
    async stop() {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const escalate = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(escalate);
    },
  };
}
