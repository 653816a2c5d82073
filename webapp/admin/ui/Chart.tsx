/**
 * Dependency-free SVG charts for the dashboard: grouped bars (one group per day or window) and
 * lines. Values are plain numbers; `format` turns them into axis and tooltip text.
 */
import type { ReactNode } from 'react';
import css from './chart.module.css';

export interface Series {
  name: string;
  color: string;
}

export interface Point {
  label: string;
  values: number[];
}

const W = 560;
const H = 220;
const PAD = { left: 56, right: 12, top: 12, bottom: 28 };
const INNER_W = W - PAD.left - PAD.right;
const INNER_H = H - PAD.top - PAD.bottom;

interface Scale {
  min: number;
  max: number;
  /** The distance between two ticks: a whole 1, 2 or 5 times a power of ten, never below 1. */
  step: number;
  /** The height of a value in the plot. */
  y: (v: number) => number;
}

/** The value scale of points, from 0 or their lowest value to their highest. */
function scale(points: Point[]): Scale {
  let min = 0;
  let max = 0;
  for (const p of points) {
    for (const v of p.values) {
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
  }
  const step = tickStep(max - min);
  min = Math.floor(min / step) * step;
  max = Math.max(min + step, Math.ceil(max / step) * step);
  return { min, max, step, y: (v) => PAD.top + INNER_H * (1 - (v - min) / (max - min)) };
}

/** A tick step for a range: about four ticks, each a whole 1, 2 or 5 × 10^n (so counts never repeat as 0, 0, 1, 1). */
export function tickStep(range: number): number {
  const rough = Math.max(1, range / 4);
  const pow = 10 ** Math.floor(Math.log10(rough));
  const f = rough / pow;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * pow;
}

function Axis({ scale: { min, max, step, y }, format }: { scale: Scale; format: (v: number) => string }) {
  const ticks: number[] = [];
  for (let v = min; v <= max + step / 2; v += step) ticks.push(v);
  return (
    <g>
      {ticks.map((v) => (
        <g key={v}>
          <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} className={css.grid} />
          <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" className={css.tick}>
            {format(v)}
          </text>
        </g>
      ))}
    </g>
  );
}

function Legend({ series }: { series: Series[] }) {
  return (
    <div className={css.legend}>
      {series.map((s) => (
        <span key={s.name}>
          <i style={{ background: s.color }} />
          {s.name}
        </span>
      ))}
    </div>
  );
}

/** What both charts draw in: the value axis under the plot, and the legend. */
function Frame({ scale, format, label, series, children }: { scale: Scale; format: (v: number) => string; label: string; series: Series[]; children: ReactNode }) {
  return (
    <figure className={css.figure}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} className={css.svg}>
        <Axis scale={scale} format={format} />
        {children}
      </svg>
      <Legend series={series} />
    </figure>
  );
}

export function BarChart({ points, series, format = String, label }: { points: Point[]; series: Series[]; format?: (v: number) => string; label: string }) {
  const valueScale = scale(points);
  const { y } = valueScale;
  const groupW = INNER_W / Math.max(1, points.length);
  const barW = Math.max(2, (groupW * 0.7) / Math.max(1, series.length));
  return (
    <Frame scale={valueScale} format={format} label={label} series={series}>
      {points.map((p, i) => (
        <g key={p.label}>
          {p.values.map((v, j) => {
            const x = PAD.left + groupW * i + groupW * 0.15 + barW * j;
            const top = Math.min(y(v), y(0));
            return (
              <rect key={j} x={x} y={top} width={barW} height={Math.max(1, Math.abs(y(v) - y(0)))} fill={series[j]?.color}>
                <title>{`${p.label} · ${series[j]?.name ?? ''}: ${format(v)}`}</title>
              </rect>
            );
          })}
          <text x={PAD.left + groupW * (i + 0.5)} y={H - 8} textAnchor="middle" className={css.tick}>
            {p.label}
          </text>
        </g>
      ))}
    </Frame>
  );
}

export function LineChart({ points, series, format = String, label }: { points: Point[]; series: Series[]; format?: (v: number) => string; label: string }) {
  const valueScale = scale(points);
  const { y } = valueScale;
  const step = INNER_W / Math.max(1, points.length - 1);
  const x = (i: number) => PAD.left + (points.length === 1 ? INNER_W / 2 : step * i);
  return (
    <Frame scale={valueScale} format={format} label={label} series={series}>
      {series.map((s, j) => (
        <g key={s.name}>
          <polyline fill="none" stroke={s.color} strokeWidth={2} points={points.map((p, i) => `${x(i)},${y(p.values[j] ?? 0)}`).join(' ')} />
          {points.map((p, i) => (
            <circle key={p.label} cx={x(i)} cy={y(p.values[j] ?? 0)} r={3} fill={s.color}>
              <title>{`${p.label} · ${s.name}: ${format(p.values[j] ?? 0)}`}</title>
            </circle>
          ))}
        </g>
      ))}
      {points.map((p, i) => (
        <text
          key={p.label}
          x={x(i)}
          y={H - 8}
          // The first and last dates sit at the plot's edges: anchored inward, they are never cut.
          textAnchor={points.length > 1 && i === 0 ? 'start' : points.length > 1 && i === points.length - 1 ? 'end' : 'middle'}
          className={css.tick}
        >
          {p.label}
        </text>
      ))}
    </Frame>
  );
}
