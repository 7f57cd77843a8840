import { takeResponseViolations } from './openapi-response-check';
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

/**
 * A root hook: a response that broke the OpenAPI document during a test (or its hooks) fails it,
 * naming the request and what was wrong (test/helpers/openapi-response-check.ts).
 */
export const mochaHooks = {
  afterEach() {
    const found = takeResponseViolations();
    if (found.length > 0) {
      throw new Error(`${found.length} response(s) broke openapi.json:\n${found.map((v) => `  ${v.request}: ${v.problem}`).join('\n')}`);
    }
  },
};
