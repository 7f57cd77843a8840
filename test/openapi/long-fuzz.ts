import { ensureSchemathesis } from '../../embedded/schemathesis';
import { isDeepStrictEqual } from 'node:util';
import { catalogModels, describeFuzzReport, endFuzzOrganization, fuzzOrganization, fuzzOrganizationState, runSchemathesis, type FuzzBudget } from '../helpers/schemathesis';
import { startTestStack, stopTestStack } from '../helpers/stack';

// `npm run fuzz`: the long Schemathesis run, for whoever wants more than CI's budget. It starts the
// same stack the tests do (test/helpers/stack.ts: embedded Postgres, a Temporal dev server, a
// worker with the simulated providers, the API), makes a fresh organization, and runs the CI run's
// phases and checks (test/openapi/fuzz.test.ts) with FUZZ_MAX_EXAMPLES cases per operation (1000
// by default), streaming Schemathesis's output and ending with its summary. It exits with
// Schemathesis's exit code: 0 when it found nothing. docs/testing.md, "Fuzzing the contract".

function envInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, not ${JSON.stringify(raw)}`);
  return value;
}

async function main(): Promise<number> {
  const budget: FuzzBudget = {
    maxExamples: envInteger('FUZZ_MAX_EXAMPLES', 1000),
    seed: envInteger('FUZZ_SEED', Date.now() % 2 ** 31),
    workers: envInteger('FUZZ_WORKERS', 1),
    statefulMaxSteps: envInteger('FUZZ_STATEFUL_MAX_STEPS', 20),
  };
  const st = await ensureSchemathesis((line) => console.log(line));
  console.log('starting the test stack…');
  const stack = await startTestStack();
  try {
    const org = await fuzzOrganization();
    const before = await fuzzOrganizationState(org);
    console.log(`fuzzing ${stack.apiUrl} as organization ${org.id}: ${JSON.stringify(budget)}`);
    const result = await runSchemathesis({
      st,
      schema: `${stack.apiUrl}/openapi.json`,
      baseUrl: stack.apiUrl,
      credentials: { apiKey: org.liveKey, adminToken: stack.adminToken },
      organization: org,
      models: await catalogModels(org.liveKey),
      budget,
      onOutput: (chunk) => process.stdout.write(chunk),
    });
    console.log(`\nSchemathesis exited ${result.exitCode} after ${result.seconds.toFixed(0)} s (seed ${budget.seed})\n${describeFuzzReport(result.report)}`);
    const after = await fuzzOrganizationState(org);
    await endFuzzOrganization(org);
    if (!isDeepStrictEqual(after, before)) {
      console.log(
        `the run changed its own organization or key, so what it tested after that was not what it claims:\nbefore ${JSON.stringify(before)}\nafter  ${JSON.stringify(after)}`,
      );
      return result.exitCode || 1;
    }
    return result.exitCode;
  } finally {
    await stopTestStack();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
