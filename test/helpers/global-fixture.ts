import { startTestStack, stopTestStack } from './stack';

// Mocha global fixtures: one stack for the whole run. Building the Temporal CLI on a fresh
// machine can take minutes, hence no timeout here.
export async function mochaGlobalSetup(this: unknown) {
  const started = Date.now();
  await startTestStack();
  process.stderr.write(`  [stack] ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

export async function mochaGlobalTeardown() {
  await stopTestStack();
}
