// How figures read in the dashboard: credits as whole numbers, dollars with cents, times local.

const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const usdFormat = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 4 });

export const formatCredits = (credits: number | null | undefined): string => (credits === null || credits === undefined ? '—' : `${numberFormat.format(credits)} cr`);

export const formatUsd = (usd: number | null | undefined): string => (usd === null || usd === undefined ? '—' : usdFormat.format(usd));

export const formatTime = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString() : '—');

/** Milliseconds as `850 ms`, `12.3 s` or `4 min 05 s`. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** The time between two ISO timestamps, or undefined when one is missing. */
export const between = (from: string | null | undefined, to: string | null | undefined): number | undefined =>
  from && to ? new Date(to).getTime() - new Date(from).getTime() : undefined;
