import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KeyPrincipal } from '../../db/repos/api-keys';
import type { PrincipalChangeListener } from '../../db/principal-changes';

// Authenticated principals (key + user + organization) cached per secret hash, so that steady
// traffic authenticates without a database round trip — while a revocation stays immediate.
//
// The rule that makes it immediate: a cached principal is used only while the change listener has
// confirmed, within the last FRESHNESS_MS, that every change committed before then has been
// delivered (and a delivered change empties the cache). An API call that changes a principal
// (revoke, key or organization update) answers only after SETTLE_MS > FRESHNESS_MS. So by the time
// the caller sees the answer, every process has either dropped the old principal or stopped
// trusting its cache; a process whose listener is down falls back to the database on every request.
//
// Unknown keys are never cached (a new key needs no invalidation).

export const FRESHNESS_MS = 250;
export const SETTLE_MS = 300;
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

export interface PrincipalCache {
  find(secretHash: string): Promise<KeyPrincipal | undefined>;
  /** Waits until no API process can still serve a principal from before this call. */
  settle(): Promise<void>;
}

export function createPrincipalCache(load: (secretHash: string) => Promise<KeyPrincipal | undefined>, listener: PrincipalChangeListener | undefined): PrincipalCache {
  const entries = new Map<string, { principal: KeyPrincipal; loadedAt: number }>();
  // Bumped on every change: a load that started before a change must not be cached after it.
  let generation = 0;
  listener?.onChange(() => {
    generation += 1;
    entries.clear();
  });

  return {
    async find(secretHash) {
      const now = performance.now();
      if (listener && now - listener.confirmedThrough() < FRESHNESS_MS) {
        const hit = entries.get(secretHash);
        if (hit && now - hit.loadedAt < TTL_MS) return hit.principal;
      }
      const startedIn = generation;
      const loadedAt = performance.now();
      const principal = await load(secretHash);
      if (principal && listener && startedIn === generation) {
        if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
        entries.set(secretHash, { principal, loadedAt });
      }
      return principal;
    },
    settle: () => sleep(SETTLE_MS),
  };
}
