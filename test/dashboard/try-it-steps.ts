import assert from 'node:assert/strict';
import type { DashboardSession } from './harness';

// The steps of the Try it form both of its test files take (try-it.test.ts, try-it-inputs.test.ts).

/** The estimate the form shows, in credits (read from the element the person sees). */
export async function shownEstimate(session: DashboardSession): Promise<number> {
  const estimate = session.page.getByTestId('estimate');
  await estimate.getByTestId('estimate-credits').waitFor();
  const reserved = Number(await estimate.getAttribute('data-reserved'));
  assert.equal((await estimate.getByTestId('estimate-credits').textContent())?.replace(/\D/g, ''), String(reserved), 'the figure shown is the figure computed');
  return reserved;
}

/** Clicks Generate and waits for the result to reach a terminal status; returns the generation id. */
export async function generate(session: DashboardSession, timeoutMs = 60_000): Promise<string> {
  await session.page.getByRole('button', { name: 'Generate' }).click();
  const result = session.page.locator('[data-testid="try-result"][data-status="succeeded"], [data-testid="try-result"][data-status="failed"]');
  await result.waitFor({ timeout: timeoutMs });
  assert.equal(await result.getAttribute('data-status'), 'succeeded');
  return (await result.getAttribute('data-generation-id'))!;
}
