import { buildDashboard } from '../../embedded/dashboard-build';
import { takeResponseViolations } from './openapi-response-check';
import { startTestStack, stopTestStack } from './stack';

// Mocha global fixtures: one stack for the whole run. Building the Temporal CLI on a fresh
// machine can take minutes, hence no timeout here.
export async function mochaGlobalSetup(this: unknown) {
  const started = Date.now();
  // Before the API starts, so it serves the dashboard of the sources under test (test/dashboard/).
  await buildDashboard();
  await startTestStack();
  process.stderr.write(`  [stack] ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

export async function mochaGlobalTeardown() {
  await stopTestStack();
}

function failOnViolations(): void {
  const found = takeResponseViolations();
  if (found.length > 0) {
    throw new Error(`${found.length} response(s) broke openapi.json:\n${found.map((v) => `  ${v.request}: ${v.problem}`).join('\n')}`);
  }
}

/**
 * A root hook: a response that broke the OpenAPI document fails the test that received it
 * (test/helpers/openapi-response-check.ts), naming the request and what was wrong. The check runs at
 * the end of the test's own function, not in an afterEach hook, because a failing root hook would
 * stop the whole run; a response that arrives after its test ended (or during a `before` hook) fails
 * the next test.
 */
export const mochaHooks = {
  beforeEach(this: Mocha.Context) {
    const test = this.currentTest;
    const original = test?.fn;
    if (!test || !original || original.length > 0) return;
    test.fn = async function (this: Mocha.Context) {
      failOnViolations();
      try {
        await (original as (this: Mocha.Context) => unknown).call(this);
      } catch (err) {
        // The test failed anyway; its broken responses go with its own error, not into the next test.
        const found = takeResponseViolations();
        if (found.length > 0 && err instanceof Error)
          err.message += `\n(and ${found.length} response(s) broke openapi.json: ${found.map((v) => `${v.request}: ${v.problem}`).join('; ')})`;
        throw err;
      }
      failOnViolations();
    };
  },
};
