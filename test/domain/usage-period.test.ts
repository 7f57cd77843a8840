import assert from 'node:assert/strict';
import { resolveUsagePeriod } from '../../domain/usage-period';

describe('the period of GET /v1/usage', () => {
  it('defaults to the current UTC month so far, whatever the local time zone', () => {
    assert.deepEqual(resolveUsagePeriod({}, new Date('2026-02-28T23:59:59.999Z')), { from: '2026-02-01', to: '2026-02-28' });
    assert.deepEqual(resolveUsagePeriod({}, new Date('2026-03-01T00:00:00.000Z')), { from: '2026-03-01', to: '2026-03-01' });
  });

  it('starts a period given only its end at the first day of that month', () => {
    assert.deepEqual(resolveUsagePeriod({ to: '2025-12-15' }, new Date('2026-03-01T00:00:00Z')), { from: '2025-12-01', to: '2025-12-15' });
  });

  it('ends a period given only its start today', () => {
    assert.deepEqual(resolveUsagePeriod({ from: '2026-01-10' }, new Date('2026-03-01T08:00:00Z')), { from: '2026-01-10', to: '2026-03-01' });
  });

  it('names from when it is after to, or when the range passes 366 days', () => {
    const now = new Date('2026-03-01T00:00:00Z');
    assert.equal((resolveUsagePeriod({ from: '2026-03-02' }, now) as { param: string }).param, 'from');
    assert.match((resolveUsagePeriod({ from: '2026-03-02' }, now) as { message: string }).message, /today in UTC/);
    assert.deepEqual(resolveUsagePeriod({ from: '2024-01-01', to: '2024-12-31' }, now), { from: '2024-01-01', to: '2024-12-31' });
    assert.match((resolveUsagePeriod({ from: '2024-01-01', to: '2025-01-01' }, now) as { message: string }).message, /367 days/);
  });
});
