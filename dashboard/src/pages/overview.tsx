import type { Schemas } from '../api';
import { ErrorNotice, Spinner, useAsync } from '../components/async';
import { formatCredits, formatUsd } from '../components/format';
import { SpendChart, type DayPoint } from '../components/spend-chart';
import { mayCall } from '../permissions';
import { href, type ViewProps } from '../router';
import { useSession } from '../session-context';
import './overview.css';

// The landing view: the organization's balance and plan, this month's spend by day (a chart), by
// model and by modality, and the keys' monthly budgets. Each part is asked of the API only if the
// key may read it (usage:read for balance and usage, admin with api_keys:manage for the keys); the
// rest of the page still shows, with a line saying what the key would need.

type UsageRow = Schemas['UsageRow'];
type Usage = Schemas['Usage'];
type ApiKey = Schemas['ApiKey'];

const DAY_MS = 24 * 60 * 60 * 1000;

/** Every day of the usage's period with its spend, zeros for the days nobody spent. */
function spendByDay(usage: Usage): DayPoint[] {
  const byDay = new Map(usage.data.map((row) => [row.key, row.usd]));
  const points: DayPoint[] = [];
  for (let t = Date.parse(`${usage.from}T00:00:00Z`); t <= Date.parse(`${usage.to}T00:00:00Z`); t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    points.push({ day, usd: byDay.get(day) ?? 0 });
  }
  return points;
}

export function Overview(_props: ViewProps) {
  const { identity } = useSession();
  const readsUsage = mayCall(identity, 'getUsage');
  const { organization } = identity;
  return (
    <section class="overview">
      <h1>Overview</h1>
      <div class="grid overview-stats">
        {mayCall(identity, 'getBalance') ? <BalanceCards /> : null}
        <div class="card">
          <div class="muted small">Plan</div>
          <div class="stat" data-testid="plan">
            {organization.plan}
          </div>
          <div class="muted small" data-testid="multiplier">
            Price multiplier ×{organization.multiplier}
          </div>
        </div>
      </div>
      {readsUsage ? (
        <UsageThisMonth />
      ) : (
        <p class="muted" data-testid="usage-hint">
          Balance and spend need a key with the <code>usage:read</code> scope.
        </p>
      )}
      {mayCall(identity, 'listApiKeys') && <KeyBudgets />}
    </section>
  );
}

function BalanceCards() {
  const { api } = useSession();
  const balance = useAsync(() => api.balance.get(), [api]);
  const b = balance.data;
  return (
    <>
      <div class="card">
        <div class="muted small">Available{b && !b.livemode ? ' (sandbox)' : ''}</div>
        <div class="stat" data-testid="balance-available">
          {b ? formatCredits(b.available_credits) : balance.loading ? '…' : '—'}
        </div>
        <div class="muted small">{b ? formatUsd(b.available_credits / 1000) : '\u00a0'}</div>
      </div>
      <div class="card">
        <div class="muted small">Reserved by running generations</div>
        <div class="stat" data-testid="balance-reserved">
          {b ? formatCredits(b.reserved_credits) : balance.loading ? '…' : '—'}
        </div>
        <div class="muted small">{b ? formatUsd(b.reserved_credits / 1000) : '\u00a0'}</div>
      </div>
      {balance.error !== undefined && (
        <div class="overview-error">
          <ErrorNotice error={balance.error} />
        </div>
      )}
    </>
  );
}

function UsageThisMonth() {
  const { api } = useSession();
  // No period: the API's default is the current UTC month so far.
  const usage = useAsync(async () => {
    const [day, model, modality] = await Promise.all([api.usage.get({ group_by: 'day' }), api.usage.get({ group_by: 'model' }), api.usage.get({ group_by: 'modality' })]);
    return { day, model, modality };
  }, [api]);
  const data = usage.data;
  const total = data?.day.data.reduce((sum, row) => sum + row.usd, 0);
  return (
    <>
      <h2>
        Spend this month{data && <span class="muted small"> ({`${data.day.from} to ${data.day.to}, UTC`})</span>}
        {total !== undefined && (
          <span class="overview-total" data-testid="spend-total">
            {formatUsd(total)}
          </span>
        )}
      </h2>
      <ErrorNotice error={usage.error} />
      <div class="card overview-chart">
        {data ? (
          <SpendChart points={spendByDay(data.day)} label="Spend by day" />
        ) : (
          <>
            <div class="overview-chart-placeholder">{usage.loading && <Spinner label="Loading usage…" />}</div>
            {/* The height of the chart's table toggle, so nothing below moves when the chart arrives. */}
            <div class="spend-chart-table small" aria-hidden="true">
              {'\u00a0'}
            </div>
          </>
        )}
      </div>
      <div class="overview-breakdowns">
        <Breakdown title="By model" rows={data?.model.data} testId="spend-by-model" />
        <Breakdown title="By modality" rows={data?.modality.data} testId="spend-by-modality" filter="modality" />
      </div>
    </>
  );
}

/** One usage grouping as a table, largest spend first, with a bar of each row's share. */
function Breakdown({ title, rows, testId, filter }: { title: string; rows: UsageRow[] | undefined; testId: string; filter?: 'modality' }) {
  const sorted = [...(rows ?? [])].sort((a, b) => b.usd - a.usd);
  const max = Math.max(0, ...sorted.map((r) => r.usd));
  return (
    <div>
      <h3>{title}</h3>
      <div class="table-wrap">
        <table data-testid={testId}>
          <thead>
            <tr>
              <th scope="col">{title.replace(/^By /, '').replace(/^./, (c) => c.toUpperCase())}</th>
              <th scope="col">Generations</th>
              <th scope="col">Spend</th>
              <th scope="col">Refunded</th>
            </tr>
          </thead>
          <tbody>
            {sorted.map((row) => (
              <tr key={row.key}>
                <td>{filter ? <a href={href('generations', { [filter]: row.key })}>{row.key}</a> : row.key}</td>
                <td>{row.generations}</td>
                <td>
                  <span class="share" aria-hidden="true">
                    <span class="share-bar" style={{ width: `${max > 0 ? (row.usd / max) * 100 : 0}%` }} />
                  </span>
                  {formatUsd(row.usd)}
                </td>
                <td>{formatCredits(row.credits_refunded)}</td>
              </tr>
            ))}
            {rows && rows.length === 0 && (
              <tr>
                <td colSpan={4} class="muted">
                  Nothing spent this month.
                </td>
              </tr>
            )}
            {!rows && (
              <tr>
                <td colSpan={4} class="muted">
                  …
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** Every live key with a monthly budget and how much of it is spent this month. */
function KeyBudgets() {
  const { api } = useSession();
  const keys = useAsync(async () => {
    const all: ApiKey[] = [];
    for await (const key of api.apiKeys.list()) all.push(key);
    return all.filter((key) => key.monthly_budget_usd !== null && key.revoked_at === null);
  }, [api]);
  return (
    <>
      <h2>Key budgets this month</h2>
      <ErrorNotice error={keys.error} />
      {keys.loading && !keys.data && <Spinner label="Loading keys…" />}
      {keys.data?.length === 0 && <p class="muted">No key has a monthly budget. Set one on the API keys page.</p>}
      <ul class="budgets" data-testid="budgets">
        {keys.data?.map((key) => {
          const budget = key.monthly_budget_usd ?? 0;
          const share = budget > 0 ? Math.min(1, key.spent_usd_this_month / budget) : 1;
          return (
            <li key={key.id} class="budget" data-key-id={key.id}>
              <div class="budget-label">
                <span>
                  {key.name} <span class="muted small mono">{key.prefix}…</span>
                </span>
                <span class="small">
                  {formatUsd(key.spent_usd_this_month)} of {formatUsd(budget)}
                </span>
              </div>
              <div
                class={`budget-bar ${share >= 0.9 ? 'budget-high' : ''}`}
                role="meter"
                aria-label={`${key.name}: budget used`}
                aria-valuemin={0}
                aria-valuemax={budget}
                aria-valuenow={key.spent_usd_this_month}
                aria-valuetext={`${Math.round(share * 100)}%`}
              >
                <span style={{ width: `${share * 100}%` }} />
              </div>
            </li>
          );
        })}
      </ul>
    </>
  );
}
