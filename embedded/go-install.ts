import { spawn, spawnSync } from 'node:child_process';

// The two ways the project finds a tool that is not on npm (the Temporal CLI, promtool): a command
// already on PATH, or one built from its Go module with `go install` into a folder of .tools.

/** Where `command` is on PATH, or undefined. */
export function onPath(command: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  const location = found.stdout.trim();
  return found.status === 0 && location ? location : undefined;
}

/** `go install <module>` with its binary written to `bin`; Go's build cache makes a second build quick. */
export async function goInstall(module: string, bin: string, options: { tags?: readonly string[] } = {}): Promise<void> {
  const tags = options.tags?.length ? [`-tags=${options.tags.join(',')}`] : [];
  await new Promise<void>((resolve, reject) => {
    const child = spawn('go', ['install', ...tags, module], {
      env: { ...process.env, GOBIN: bin },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`go install ${module} exited with ${code}`))));
  });
}
