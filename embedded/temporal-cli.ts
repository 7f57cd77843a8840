import { existsSync } from 'node:fs';
import path from 'node:path';
import { goInstall, onPath } from './go-install';

// Finds the Temporal CLI (its dev server is not on npm): on PATH, else in the project's
// .tools/bin, else built there with `go install` when Go is present.

export const TEMPORAL_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal@v1.5.1';
export const PROJECT_ROOT = path.resolve(__dirname, '..');
export const TOOLS_BIN = path.join(PROJECT_ROOT, '.tools', 'bin');

/** The CLI's path, or undefined when there is none and no Go to build it. */
export async function findOrBuildTemporalCli(log: (line: string) => void): Promise<string | undefined> {
  const local = path.join(TOOLS_BIN, 'temporal');
  if (existsSync(local)) return local;
  const global = onPath('temporal');
  if (global) return global;
  if (!onPath('go')) return undefined;
  log(`building the Temporal CLI with go install ${TEMPORAL_CLI_MODULE} (minutes the first time; Go caches it after)`);
  await goInstall(TEMPORAL_CLI_MODULE, TOOLS_BIN);
  return local;
}

if (require.main === module) {
  findOrBuildTemporalCli((line) => console.log(line)).then(
    (cli) => {
      if (!cli) {
        console.error('No temporal CLI on PATH and no Go to build it; `npm start` will fall back to the download @temporalio/testing performs.');
        process.exit(1);
      }
      console.log(cli);
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
