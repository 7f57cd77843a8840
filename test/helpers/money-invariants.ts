import assert from 'node:assert/strict';
import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import type { WalletBalance } from '../../db/ledger';
import { isTerminal, type GenerationStatus } from '../../domain/generation-status';
import { comparisonViolations, readComparisons, strandedComparisons, workflowStatus } from './comparison-invariants';
import { stack } from './stack';

// The money invariants, checked from outside against Postgres and Temporal: after every test that
// moves money (through assertLedgerBalanced in test/helpers/ledger.ts) and at the end of the chaos
// run (bench/chaos.ts imports checkMoneyInvariants).
//   (a) Every wallet equals the sums of its ledger rows, and no balance is negative.
//   (b) Every generation has exactly the ledger rows its status implies: a terminal one has
//       reserved = charged + refunded and holds nothing back, a live one in flight holds exactly its
//       reservation, a sandbox or zero-cost one has none; and no reservation lacks its generation.
//   (c) No generation stays non-terminal once its workflow (workflow id = generation id) is closed.
//   (d)-(f) Comparisons reserve the sum of their children and get the verdict their children give,
//       once (test/helpers/comparison-invariants.ts).
//   (g) Not money, but read in the same pass: every provider call a terminal generation began is in
//       its attempts (none left in `open_attempt`), whether the call ended, a timeout or a cancel
//       stopped it, or its worker was killed.
// (a) alone cannot see a stranded reservation: credits that nothing will ever settle still balance
// the wallet. (b) sees a terminal generation that kept them, (c) one that nothing will ever finish.

interface LedgerRow {
  kind: string;
  available: number;
  reserved: number;
}

interface GenerationState {
  id: string;
  comparisonId: string | null;
  organizationId: string;
  environment: string;
  status: GenerationStatus;
  reserved: number;
  charged: number;
  refunded: number;
  /** The provider call begun and not yet in `attempts`, if any. */
  openAttempt: { provider: string; model: string } | null;
  ledger: (LedgerRow & { organizationId: string })[];
}

interface Snapshot {
  comparisons: Awaited<ReturnType<typeof readComparisons>>;
  wallets: Map<string, WalletBalance & { ledger: WalletBalance }>;
  generations: GenerationState[];
  orphans: { generationId: string | null; kinds: string }[];
}

// How many workflows are described at once: enough for a chaos run's thousands, gentle on the server.
const DESCRIBE_CONCURRENCY = 16;

/** Every violation of the money invariants, in words; none means they hold. All organizations when unscoped. */
export async function checkMoneyInvariants(knex: Knex, temporal: Client, scope: { organizationId?: string }): Promise<string[]> {
  return (await inspect(knex, temporal, scope)).violations;
}

/** Asserts the money invariants of one organization; returns its wallet as checked. */
export async function assertMoneyInvariants(organizationId: string): Promise<WalletBalance> {
  const { violations, snapshot } = await inspect(stack().knex, stack().temporal, { organizationId });
  assert.deepEqual(violations, [], `the money invariants of ${organizationId}`);
  const wallet = snapshot.wallets.get(organizationId)!;
  return { availableCredits: wallet.availableCredits, reservedCredits: wallet.reservedCredits };
}

async function inspect(knex: Knex, temporal: Client, scope: { organizationId?: string }) {
  // One snapshot, so that money moving while we read (a chaos run, a generation still running)
  // cannot show a wallet and its ledger at different moments.
  const snapshot = await knex.transaction((trx) => readSnapshot(trx, scope), { isolationLevel: 'repeatable read', readOnly: true });
  const violations = [...walletViolations(snapshot, scope), ...snapshot.generations.flatMap(generationViolations).sort()];
  for (const orphan of snapshot.orphans) {
    violations.push(`ledger rows ${orphan.kinds} of ${orphan.generationId ?? 'no generation id'} belong to no generation, so nothing will ever settle them`);
  }
  violations.push(
    ...(await strandedGenerations(
      knex,
      temporal,
      snapshot.generations.filter((g) => !isTerminal(g.status)),
    )),
  );
  violations.push(...snapshot.comparisons.flatMap(comparisonViolations).sort());
  violations.push(...(await strandedComparisons(knex, temporal, snapshot.comparisons)));
  return { violations, snapshot };
}

async function readSnapshot(trx: Knex.Transaction, scope: { organizationId?: string }): Promise<Snapshot> {
  const inScope = (column: string) => (q: Knex.QueryBuilder) => void (scope.organizationId && q.where(column, scope.organizationId));
  const walletRows: { organization_id: string; available: number; reserved: number; ledger_available: number; ledger_reserved: number }[] = await trx('wallets as w')
    .leftJoin('ledger_entries as l', 'l.organization_id', 'w.organization_id')
    .modify(inScope('w.organization_id'))
    .groupBy('w.organization_id')
    .select(
      'w.organization_id',
      trx.raw('max(w.available_credits)::bigint AS available'),
      trx.raw('max(w.reserved_credits)::bigint AS reserved'),
      trx.raw('coalesce(sum(l.available_delta), 0)::bigint AS ledger_available'),
      trx.raw('coalesce(sum(l.reserved_delta), 0)::bigint AS ledger_reserved'),
    );
  const generationRows: {
    id: string;
    comparison_id: string | null;
    organization_id: string;
    environment: string;
    status: GenerationStatus;
    reserved_credits: number;
    charged_credits: number;
    refunded_credits: number;
    open_attempt: GenerationState['openAttempt'];
    ledger: GenerationState['ledger'];
  }[] = await trx('generations as g')
    .leftJoin('ledger_entries as l', 'l.generation_id', 'g.id')
    .modify(inScope('g.organization_id'))
    .groupBy('g.id')
    .select(
      'g.id',
      'g.comparison_id',
      'g.organization_id',
      'g.environment',
      'g.status',
      'g.reserved_credits',
      'g.charged_credits',
      'g.refunded_credits',
      'g.open_attempt',
      trx.raw(`coalesce(json_agg(json_build_object('kind', l.kind, 'available', l.available_delta, 'reserved', l.reserved_delta,
                 'organizationId', l.organization_id) ORDER BY l.id) FILTER (WHERE l.id IS NOT NULL), '[]') AS ledger`),
    );
  const orphans: { generation_id: string | null; kinds: string }[] = await trx('ledger_entries as l')
    .whereIn('l.kind', ['reserve', 'capture', 'release', 'refund'])
    .where((q) => {
      q.whereNull('l.generation_id').orWhereNotExists(trx('generations as g').whereRaw('g.id = l.generation_id'));
    })
    .modify(inScope('l.organization_id'))
    .groupBy('l.generation_id')
    .select('l.generation_id', trx.raw(`string_agg(l.kind, '+' ORDER BY l.id) AS kinds`));
  return {
    comparisons: await readComparisons(trx, scope.organizationId),
    wallets: new Map(
      walletRows.map((w) => [
        w.organization_id as string,
        {
          availableCredits: Number(w.available),
          reservedCredits: Number(w.reserved),
          ledger: { availableCredits: Number(w.ledger_available), reservedCredits: Number(w.ledger_reserved) },
        },
      ]),
    ),
    generations: generationRows.map((g) => ({
      id: g.id,
      comparisonId: g.comparison_id,
      organizationId: g.organization_id,
      environment: g.environment,
      status: g.status,
      reserved: Number(g.reserved_credits),
      charged: Number(g.charged_credits),
      refunded: Number(g.refunded_credits),
      openAttempt: g.open_attempt,
      ledger: g.ledger,
    })),
    orphans: orphans.map((o) => ({ generationId: o.generation_id, kinds: o.kinds })),
  };
}

function walletViolations(snapshot: Snapshot, scope: { organizationId?: string }): string[] {
  if (scope.organizationId && !snapshot.wallets.has(scope.organizationId)) return [`organization ${scope.organizationId} has no wallet`];
  const violations: string[] = [];
  for (const [organizationId, w] of snapshot.wallets) {
    if (w.availableCredits !== w.ledger.availableCredits || w.reservedCredits !== w.ledger.reservedCredits) {
      violations.push(
        `wallet of ${organizationId} holds ${w.availableCredits} available / ${w.reservedCredits} reserved, ` +
          `but its ledger sums to ${w.ledger.availableCredits} / ${w.ledger.reservedCredits}`,
      );
    }
    if (w.availableCredits < 0 || w.reservedCredits < 0) {
      violations.push(`wallet of ${organizationId} is negative: ${w.availableCredits} available / ${w.reservedCredits} reserved`);
    }
  }
  return violations.sort();
}

function generationViolations(g: GenerationState): string[] {
  const violations: string[] = [];
  const name = `generation ${g.id} (${g.environment}, ${g.status}, reserved ${g.reserved}, charged ${g.charged}, refunded ${g.refunded})`;
  if (isTerminal(g.status) && g.reserved !== g.charged + g.refunded) violations.push(`${name}: reserved is not charged + refunded`);
  if ((g.status === 'failed' || g.status === 'canceled') && g.charged !== 0) violations.push(`${name}: an unsuccessful generation is never charged`);
  const actual = g.ledger.map(formatRow);
  const expected = expectedLedger(g).map(formatRow);
  if (actual.join(', ') !== expected.join(', ')) {
    const held = g.ledger.reduce((sum, row) => sum + row.reserved, 0);
    const holding = isTerminal(g.status) && held !== 0 ? `; it still holds ${held} reserved credits` : '';
    violations.push(`${name}: ledger rows [${actual.join(', ')}], expected [${expected.join(', ')}]${holding}`);
  }
  if (isTerminal(g.status) && g.openAttempt) violations.push(`${name}: its call to ${g.openAttempt.provider} (${g.openAttempt.model}) is missing from its attempts`);
  const foreign = g.ledger.filter((row) => row.organizationId !== g.organizationId);
  if (foreign.length > 0) violations.push(`${name}: ledger rows in another organization's wallet (${foreign.map((r) => r.organizationId).join(', ')})`);
  return violations;
}

/**
 * The rows db/ledger.ts writes for a generation in this state: a live generation with a non-zero
 * estimate reserves it (admitGeneration); success captures the charge and releases any rest
 * (captureCredits), failure or cancel refunds it all (refundCredits). The sandbox and zero-cost
 * generations, cache hits among them, move no money at all.
 */
function expectedLedger(g: GenerationState): LedgerRow[] {
  if (g.environment !== 'live' || g.reserved === 0) return [];
  const rows: LedgerRow[] = [{ kind: 'reserve', available: -g.reserved, reserved: g.reserved }];
  if (g.status === 'succeeded') {
    rows.push({ kind: 'capture', available: 0, reserved: -g.charged });
    if (g.refunded > 0) rows.push({ kind: 'release', available: g.refunded, reserved: -g.refunded });
  } else if (g.status === 'failed' || g.status === 'canceled') {
    rows.push({ kind: 'refund', available: g.reserved, reserved: -g.reserved });
  }
  return rows;
}

const formatRow = (row: LedgerRow) => `${row.kind} ${signed(row.available)}/${signed(row.reserved)}`;
const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);

/** Non-terminal generations whose workflow is closed or gone: nothing will ever finish them. */
async function strandedGenerations(knex: Knex, temporal: Client, open: GenerationState[]): Promise<string[]> {
  const violations: string[] = [];
  for (let i = 0; i < open.length; i += DESCRIBE_CONCURRENCY) {
    await Promise.all(
      open.slice(i, i + DESCRIBE_CONCURRENCY).map(async (g) => {
        const workflow = await workflowStatus(temporal, g.id);
        if (workflow === 'RUNNING') return;
        // A comparison's child not started yet is its comparison's to start or refund.
        if (g.comparisonId && (await workflowStatus(temporal, g.comparisonId)) === 'RUNNING') return;
        // A workflow closes only after its generation's terminal state committed, so a generation
        // that finished after the snapshot shows up as terminal now; one still open is stranded.
        const now = await knex('generations').where({ id: g.id }).first('status');
        if (now && isTerminal(now.status)) return;
        violations.push(
          `generation ${g.id} (${g.environment}, ${g.status}, reserved ${g.reserved}) is stranded: its workflow is ${workflow}, ` +
            'so nothing will ever finish it or settle its credits',
        );
      }),
    );
  }
  return violations.sort();
}
