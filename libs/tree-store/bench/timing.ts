// Part of `npm run bench` (see ./bench.ts).

// ---------------------------------------------------------------------------------------------
// Timing

export const note = (text: string) => process.stderr.write(`  · ${text}\n`);

export const elapsedMs = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e6;

export async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return elapsedMs(start);
}

export function p50(samples: number[]): number {
  if (samples.length === 0) throw new Error('no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Runs each of `runs` once per round, `warmup` rounds unrecorded then `reps` recorded, rotating
 * which one goes first each round; returns each run's p50 in ms.
 */
export async function interleaved(
  warmup: number,
  reps: number,
  runs: (() => Promise<unknown>)[],
): Promise<number[]> {
  const samples: number[][] = runs.map(() => []);
  for (let round = 0; round < warmup + reps; round++) {
    for (let k = 0; k < runs.length; k++) {
      const i = (round + k) % runs.length;
      const ms = await timed(runs[i] as () => Promise<unknown>);
      if (round >= warmup) (samples[i] as number[]).push(ms);
    }
  }
  return samples.map(p50);
}
