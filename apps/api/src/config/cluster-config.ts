import * as z from 'zod';

/**
 * The multi-process settings, read from the environment beside AppConfig. Each has a default that
 * suits one process; tests and the hosted shape set them.
 */
export interface ClusterConfig {
  /** `off`: this api process runs no job worker (a separate `npm run worker` does) */
  worker: 'on' | 'off';
  /** BullMQ's key prefix: REDIS_PREFIX, else BullMQ's own default `bull` (scripts/cluster.mjs counts workers there) */
  queuePrefix: string;
  /** the prefix of the other Redis keys (leases, forwarding, the Socket.IO adapter): REDIS_PREFIX, else `sweatpants` */
  keyPrefix: string;
  /** how long a worker holds a job before the stalled check hands it to another worker */
  jobLockMs: number;
  /** how long a conversation's lease lasts without renewal */
  leaseMs: number;
  /**
   * how long a runner with nothing running (waiting on a question or on the user's next message)
   * stays open after its last command; then it closes and its lease goes, and the next command
   * rebuilds it from the tree
   */
  runnerIdleMs: number;
}

export const CLUSTER_CONFIG = Symbol('ClusterConfig');

const ms = (fallback: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.coerce.number().int().min(200).max(600_000).default(fallback),
  );

const ClusterEnvSchema = z.object({
  WORKER: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() || undefined : v),
    z.enum(['on', 'off']).default('on'),
  ),
  REDIS_PREFIX: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() || undefined : v),
    z
      .string()
      .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, dots, dashes and underscores only')
      .optional(),
  ),
  JOB_LOCK_MS: ms(30_000),
  LEASE_MS: ms(10_000),
  RUNNER_IDLE_MS: ms(120_000),
});

/** Parses WORKER, REDIS_PREFIX, JOB_LOCK_MS, LEASE_MS and RUNNER_IDLE_MS; throws naming each bad variable. */
export function loadClusterConfig(env: Record<string, string | undefined>): ClusterConfig {
  const parsed = ClusterEnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0] ?? '(env)')}: ${i.message}`);
    throw new Error(`invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    worker: e.WORKER,
    queuePrefix: e.REDIS_PREFIX ?? 'bull',
    keyPrefix: e.REDIS_PREFIX ?? 'sweatpants',
    jobLockMs: e.JOB_LOCK_MS,
    leaseMs: e.LEASE_MS,
    runnerIdleMs: e.RUNNER_IDLE_MS,
  };
}
