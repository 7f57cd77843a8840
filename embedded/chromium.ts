import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

// The browser the /docs page test drives (test/api/docs-page.test.ts). A test tool's own browser
// download (`npx playwright install`) cannot work on a closed network, so the project takes Debian's
// chromium package through apt, installing it the first time it is needed: a fresh clone's
// `npm test` (or `npm run browser:install`) gets it with no step by hand.

/** Where Debian's chromium package puts its launcher. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Waits for another apt or dpkg run to let go of its lock instead of failing at once. */
const APT_LOCK_WAIT_S = 300;

function run(command: string, args: string[], log: (line: string) => void): Promise<void> {
  log(`$ ${command} ${args.join(' ')}`);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', (err) => reject(new Error(`could not run ${command}: ${err.message}`)));
    child.once('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}`))));
  });
}

const aptGet = (args: string[], log: (line: string) => void) => run('apt-get', ['-o', `DPkg::Lock::Timeout=${APT_LOCK_WAIT_S}`, ...args], log);

/**
 * The path of a Chromium to launch: Debian's, installed with apt-get when it is missing (a minute
 * or two the first time). Throws an error saying what to do when it cannot install (not root, no
 * apt-get, the package not found).
 */
export async function ensureChromium(log: (line: string) => void = (line) => console.error(line)): Promise<string> {
  if (existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}, and installing it needs root. Run \`sudo apt-get install -y --no-install-recommends chromium\` (Debian/Ubuntu), or run \`npm run browser:install\` as root.`,
    );
  }
  const install = ['install', '-y', '--no-install-recommends', 'chromium'];
  log(`No Chromium at ${CHROMIUM_PATH}: installing Debian's chromium package (a minute or two)`);
  try {
    await aptGet(install, log);
  } catch (first) {
    // A fresh machine may have no package lists yet, or stale ones naming versions the mirror no
    // longer holds: refresh them once and try again.
    log(`apt-get install failed (${(first as Error).message}); refreshing the package lists and trying again`);
    try {
      await aptGet(['update'], log);
      await aptGet(install, log);
    } catch (second) {
      throw new Error(`Could not install Chromium with apt-get: ${(second as Error).message}. Install Debian's chromium package by hand, then run the tests again.`);
    }
  }
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`apt-get installed chromium, but there is still nothing at ${CHROMIUM_PATH}.`);
  return CHROMIUM_PATH;
}

if (require.main === module) {
  const started = Date.now();
  ensureChromium().then(
    (executable) => console.log(`${executable} (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`),
    (err: Error) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
