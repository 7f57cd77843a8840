import type { WalletBalance } from '../../db/ledger';
import type { FaultWindow } from '../lib/chaos-stack';
import type { ProbeOutcome } from '../lib/probe-trickle';
import { textTable } from '../lib/text-table';
import { answersTable, recoveryTable, type Recovery } from './answers';
import type { ComparisonFigures } from './comparison-checks';
import { comparisonSummary } from './comparison-report';
import type { GenerationRow } from './checks';
import { TERMINAL, type CancelResult, type SubmittedGeneration } from './workload';

// The figures a chaos run prints at the end.

export interface ChaosFigures {
  /** What was put in flight, in one line. */
  headline: string;
  submitted: SubmittedGeneration[];
  probeIds: string[];
  rows: GenerationRow[];
  notTerminal: number;
  drainedMs: number;
  cancels: CancelResult[];
  wallet: WalletBalance;
  ledger: WalletBalance;
  moneyViolations: string[];
  answers: ProbeOutcome[];
  faults: FaultWindow[];
  recovered: Recovery[];
  probes: string[];
  /** Other requests whose answers are in `answers` (a soak's creations: `create`). */
  otherRequests: string[];
  unexpectedExits: number;
  comparisons: ComparisonFigures;
  totalMs: number;
  violations: string[];
}

export function generationsTable(rows: GenerationRow[]): string {
  const statuses = [...TERMINAL, 'queued', 'running'];
  const modalities = [...[...new Set(rows.map((r) => r.modality))].sort(), undefined];
  return textTable(
    ['modality', ...statuses, 'total'],
    modalities.map((m) => {
      const mine = rows.filter((r) => m === undefined || r.modality === m);
      return [m ?? 'all', ...statuses.map((s) => mine.filter((r) => r.status === s).length), mine.length];
    }),
  );
}

function errorCodeCounts(rows: GenerationRow[]): string {
  const counts = new Map<string, number>();
  for (const r of rows) if (r.error_code) counts.set(`${r.status} ${r.error_code}`, (counts.get(`${r.status} ${r.error_code}`) ?? 0) + 1);
  return [...counts].map(([code, n]) => `${code} ${n}`).join(', ') || 'none';
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function formatSummary(f: ChaosFigures): string {
  const workloadIds = new Set(f.submitted.map((s) => s.id));
  const count = (f2: (o: ProbeOutcome) => boolean) => f.answers.filter(f2).length;
  const cancelsAnswered = (status: number) => f.cancels.filter((c) => c.finalStatus === status).length;
  const balanced = f.wallet.availableCredits === f.ledger.availableCredits && f.wallet.reservedCredits === f.ledger.reservedCredits;
  const worst = f.recovered.map((r) => r.worstMs);
  return [
    '',
    `${f.headline}; the image and video probes created ${f.probeIds.length} more`,
    '',
    'workload generations by modality and final status:',
    generationsTable(f.rows.filter((r) => workloadIds.has(r.id))),
    '',
    'every generation of the organization (workload, comparison children, probe images, the upscale input):',
    generationsTable(f.rows),
    `error codes by final status: ${errorCodeCounts(f.rows)}`,
    `ended by the reconciler (error_code reconciled): ${f.rows.filter((r) => r.error_code === 'reconciled').length}`,
    `not terminal after ${seconds(f.drainedMs)} of waiting: ${f.notTerminal}`,
    `cancels: ${f.cancels.length} (200 canceled ${cancelsAnswered(200)}, 409 already ended ${cancelsAnswered(409)}, ` +
      `202 still landing ${cancelsAnswered(202)}, never answered ${cancelsAnswered(0)}; ${f.cancels.flatMap((c) => c.attempts).length} attempts)`,
    `ledger: wallet ${f.wallet.availableCredits} available / ${f.wallet.reservedCredits} reserved; ` +
      `Σ ledger ${f.ledger.availableCredits} / ${f.ledger.reservedCredits}: ${balanced ? 'equal' : 'NOT EQUAL'}`,
    `money invariants (wallet = Σ ledger, reserved = charged + refunded per generation, nothing stranded; every provider call in its attempts): ${f.moneyViolations.length} violations`,
    `stranded (not terminal, workflow closed or missing): ${f.moneyViolations.filter((v) => v.includes('stranded')).length}`,
    '',
    comparisonSummary(f.comparisons),
    '',
    "answers by the window they came in (GET /v1/balance and POST /v1/images every 200 ms; the workload's cancels):",
    answersTable(f.answers, f.faults, [...f.probes, ...f.otherRequests, 'cancel', 'cancel comparison']),
    `totals: 503 service_unavailable ${count((o) => o.status === 503 && o.code === 'service_unavailable')}, ` +
      `503 provider_unavailable ${count((o) => o.status === 503 && o.code === 'provider_unavailable')}, 500 ${count((o) => o.status === 500)}, ` +
      `hangs ${count((o) => o.failure === 'hang')}, connection failures ${count((o) => o.failure === 'connection')}`,
    '',
    'recovery (from a dependency being back to the first 2xx of a request sent after that):',
    recoveryTable(f.recovered, f.probes),
    `longest recovery: ${worst.includes(undefined) ? 'never' : `${(Math.max(...(worst as number[])) / 1000).toFixed(2)} s`}`,
    `services that exited by themselves: ${f.unexpectedExits}`,
    `total time: ${seconds(f.totalMs)}`,
    '',
    f.violations.length === 0 ? 'no violations' : `${f.violations.length} violations:\n${f.violations.map((v) => `  - ${v}`).join('\n')}`,
    '',
  ].join('\n');
}
