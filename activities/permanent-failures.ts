import { ApplicationFailure } from '@temporalio/activity';

// A retry helps an activity that met a passing fault (a dropped connection, a restarting
// Postgres); it cannot help one whose input is wrong or whose statement the database refuses on
// its merits. Those become non-retryable failures here, so the workflow settles (refunds) at once
// instead of retrying forever.

export const PERMANENT_FAILURE_TYPE = 'PermanentFailure';

/** SQLSTATE classes no retry can fix: data exceptions, integrity violations, syntax and access rules. */
const PERMANENT_SQLSTATE_CLASSES = new Set(['22', '23', '42', '44']);

function isPermanent(err: unknown): boolean {
  if (err instanceof RangeError || err instanceof TypeError || err instanceof SyntaxError) return true;
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.length === 5 && PERMANENT_SQLSTATE_CLASSES.has(code.slice(0, 2));
}

/** Runs `fn`, turning a failure no retry can fix into a non-retryable ApplicationFailure. */
export async function failPermanently<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ApplicationFailure || !isPermanent(err)) throw err;
    const error = err as Error;
    throw ApplicationFailure.create({
      // The generation shows this message; the database's own words stay in the cause, for operators.
      message: 'The service could not record this step of the generation (an internal error).',
      type: PERMANENT_FAILURE_TYPE,
      nonRetryable: true,
      cause: error,
      details: [{ code: 'internal_error', name: error.name }],
    });
  }
}
