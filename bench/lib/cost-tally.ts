import type { Knex } from 'knex';
import { benchProcessName, cpuSnapshot, cpuSpent, THIS_PROCESS } from './process-cpu';
import { ms } from './stats';
import { textTable } from './text-table';

// What a stretch of a benchmark cost: the CPU of every process of the stack (process-cpu.ts) and
// the transactions Postgres committed, added up over the stretches measured, to be divided by the
// requests they served.

/** Transactions Postgres has committed in the stack's database so far (reads included). */
export function postgresCommits(knex: Knex): () => Promise<number> {
  return async () => Number((await knex.raw('SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()')).rows[0].xact_commit);
}

export interface Tally {
  /** CPU milliseconds by process. */
  cpu: Map<string, number>;
  commits: number;
  during<T>(fn: () => Promise<T>): Promise<T>;
}

/** CPU by process and Postgres commits, added up over every stretch run `during` it. */
export function newTally(pgCommits: () => Promise<number>): Tally {
  const tally: Tally = {
    cpu: new Map(),
    commits: 0,
    async during(fn) {
      const [cpuBefore, commitsBefore] = await Promise.all([cpuSnapshot(benchProcessName), pgCommits()]);
      const result = await fn();
      const [cpuAfter, commitsAfter] = await Promise.all([cpuSnapshot(benchProcessName), pgCommits()]);
      cpuSpent(cpuBefore, cpuAfter).forEach((spent, name) => tally.cpu.set(name, (tally.cpu.get(name) ?? 0) + spent));
      tally.commits += commitsAfter - commitsBefore;
      return result;
    },
  };
  return tally;
}

/** One column per tally, divided by its count: CPU by process (those above 50 ms in all), then Postgres commits. */
export function tallyTable(columns: [string, Tally, number][]): string {
  const names = [...columns[0]![1].cpu.keys()].filter((name) => (columns[0]![1].cpu.get(name) ?? 0) >= 50);
  const rows = names.map((name) => [name === THIS_PROCESS ? `${name} (API, load generator)` : name, ...columns.map(([, tally, count]) => ms((tally.cpu.get(name) ?? 0) / count))]);
  rows.push(['Postgres commits', ...columns.map(([, tally, count]) => (tally.commits / count).toFixed(1))]);
  return textTable(['process', ...columns.map(([title]) => title)], rows).replace(/^/gm, '    ');
}
