// Part of `npm run bench` (see ./bench.ts).
import type { Client } from 'pg';

// ---------------------------------------------------------------------------------------------
// Report

export interface Figure {
  figure: string;
  value: number;
  floor: number;
  factor: number;
  unit: 'ms' | 'B';
}

export function table(figures: Figure[]): string[] {
  const fmt = (v: number, unit: Figure['unit']) =>
    unit === 'ms' ? `${v.toFixed(3)} ms` : `${v.toFixed(1)} B`;
  const rows = [
    ['figure', 'value', 'floor', 'ratio', 'target', 'met'],
    ...figures.map((f) => {
      const ratio = f.value / f.floor;
      return [
        f.figure,
        fmt(f.value, f.unit),
        fmt(f.floor, f.unit),
        `${ratio.toFixed(2)}x`,
        `<= ${f.factor.toFixed(1)}x`,
        ratio <= f.factor ? 'yes' : 'NO',
      ];
    }),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] as string).length)));
  const line = (r: string[]) =>
    r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join(' | ');
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.slice(1).map(line)];
}

export const k = (n: number) => (n >= 1000 ? `${n / 1000}k` : String(n));

/** The top of a query's plan with actual times, for the diagnostics on stderr. */
export async function plan(admin: Client, sql: string, params: unknown[], lines = 6): Promise<string> {
  const rows = await admin.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`,
    params,
  );
  return rows.rows
    .slice(0, lines)
    .map((r) => `      ${r['QUERY PLAN']}`)
    .join('\n');
}
