import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './spend-chart.css';
import { formatUsd } from './format';

// Spend by day as a uPlot bar chart. Its box has a fixed height (set in CSS and given to uPlot), so
// the page does not move when the chart draws; its colours are the theme's CSS variables, read when
// it draws and again when the system theme changes; a table with the same figures follows it for
// screen readers (the canvas itself is hidden from them).

export interface DayPoint {
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  usd: number;
}

const CHART_HEIGHT = 220;
const HALF_DAY_S = 12 * 60 * 60;

const cssVar = (name: string): string => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

const epochSeconds = (day: string): number => Date.parse(`${day}T00:00:00Z`) / 1000;

function options(width: number, label: string): uPlot.Options {
  const text = cssVar('--muted');
  const grid = cssVar('--border');
  const accent = cssVar('--accent');
  const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  return {
    width,
    height: CHART_HEIGHT,
    // The days are UTC calendar days (GET /v1/usage), whatever the browser's time zone.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    legend: { show: false },
    cursor: { y: false, points: { show: false } },
    // Half a day either side, so the first and last days' bars are whole.
    scales: { x: { time: true, range: (_u, min, max) => [min - HALF_DAY_S, max + HALF_DAY_S] }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
    axes: [
      { ...axis, values: '{D} {MMM}' },
      { ...axis, size: 64, values: (_u, ticks) => ticks.map((t) => formatUsd(t)) },
    ],
    series: [
      {},
      {
        label,
        stroke: accent,
        fill: accent,
        width: 0,
        paths: uPlot.paths.bars?.({ size: [0.7, 40], align: 0 }),
        points: { show: false },
      },
    ],
  };
}

/** A bar per day of `points` (every day of the period, zeros included), with a table of the same figures. */
export function SpendChart({ points, label }: { points: DayPoint[]; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const data: uPlot.AlignedData = [points.map((p) => epochSeconds(p.day)), points.map((p) => p.usd)];
    let chart = new uPlot(options(element.clientWidth, label), data, element);
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: CHART_HEIGHT }));
    resize.observe(element);
    // Colours are baked into the canvas: draw again when the system switches light and dark.
    const scheme = matchMedia('(prefers-color-scheme: dark)');
    const redraw = () => {
      chart.destroy();
      chart = new uPlot(options(element.clientWidth, label), data, element);
    };
    scheme.addEventListener('change', redraw);
    return () => {
      scheme.removeEventListener('change', redraw);
      resize.disconnect();
      chart.destroy();
    };
  }, [points, label]);

  return (
    <figure class="spend-chart">
      <div ref={box} class="spend-chart-canvas" aria-hidden="true" data-testid="spend-chart" />
      <details class="spend-chart-table">
        <summary class="small">{label} as a table</summary>
        <div class="table-wrap">
          <table data-testid="spend-by-day">
            <caption>{label}</caption>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col">Spend</th>
              </tr>
            </thead>
            <tbody>
              {points.map((p) => (
                <tr key={p.day}>
                  <td>{p.day}</td>
                  <td>{formatUsd(p.usd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
