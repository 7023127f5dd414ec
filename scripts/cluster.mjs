// `npm run cluster`: the hosted shape without Docker. Starts two api processes and a compaction
// worker on loopback against the real PostgreSQL (a database it creates, or DATABASE_URL) and Redis
// (REDIS_URL, default redis://127.0.0.1:6379), waits until each is healthy, prints their names,
// ports and pids as one JSON line, and on SIGINT/SIGTERM stops them (SIGTERM, then SIGKILL after a
// grace period) and drops the database it created (CLUSTER_KEEP_DB=1 keeps it).
//
// The reliability suite imports it: startCluster() returns a handle that starts, stops, kill -9s
// and restarts single processes, so a scenario can take one down under load.
//
// Environment: DATABASE_URL, REDIS_URL, ADMIN_EMAILS, ANTHROPIC_API_KEY/ANTHROPIC_BASE_URL (passed
// through; unset means the offline model), LEASE_MS, JOB_LOCK_MS, REDIS_PREFIX (passed through),
// JWT_SECRET (default: one random secret shared by the apis), CLUSTER_APIS (default 2), CLUSTER_WORKERS (default 1),
// TEST_DATABASE_URL (the server the database is created on), CLUSTER_VERBOSE=1 (echo the logs).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { Queue } from 'bullmq';

import { freePort, throwawayDatabase } from './local-services.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const API_ENTRY = 'apps/api/src/main.ts';
const WORKER_ENTRY = 'apps/api/src/worker.ts';
/** libs/domain's COMPACTION_QUEUE; a worker is ready once this queue lists it. */
const COMPACTION_QUEUE = 'compaction';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const STARTUP_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 15_000;
const LOG_LINES_KEPT = 300;

/** Whether the worker entry point exists yet (it is built by another part of the project). */
export const workerAvailable = () => existsSync(join(root, WORKER_ENTRY));

export { freePort };

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Creates an empty database on `serverUrl` (the api migrates it at start); returns its URL. */
export function createDatabase(serverUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_SERVER_URL) {
  return throwawayDatabase('sp_cluster', serverUrl);
}

/**
 * Starts a cluster and resolves once every process is healthy.
 *
 * @param {object} [options]
 * @param {number} [options.apis] api processes (default CLUSTER_APIS or 2)
 * @param {number} [options.workers] worker processes (default CLUSTER_WORKERS or 1; 0 for none)
 * @param {string} [options.databaseUrl] default DATABASE_URL, else a database created for the cluster
 * @param {string} [options.redisUrl] default REDIS_URL, else redis://127.0.0.1:6379
 * @param {Record<string, string | undefined>} [options.env] added to every process's environment;
 *   an undefined value removes the variable
 * @param {string} [options.logDir] where each process's output goes (default tmp/cluster-<time>)
 * @param {boolean} [options.verbose] echo every process's output
 * @example
 * const cluster = await startCluster({ workers: 0 });
 * await fetch(`${cluster.get('api-1').url}/api/health`);
 * await cluster.kill('api-1'); // kill -9
 * await cluster.stopAll();
 */
export async function startCluster(options = {}) {
  const apis = options.apis ?? Number(process.env.CLUSTER_APIS ?? 2);
  const workers = options.workers ?? Number(process.env.CLUSTER_WORKERS ?? 1);
  if (workers > 0 && !workerAvailable()) {
    throw new Error(`${WORKER_ENTRY} does not exist yet: start the cluster with workers: 0`);
  }
  const createdDb =
    (options.databaseUrl ?? process.env.DATABASE_URL) ? null : await createDatabase(options.serverUrl);
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL ?? createdDb.url;
  const redisUrl = options.redisUrl ?? process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
  const logDir = options.logDir ?? join(root, 'tmp', `cluster-${Date.now().toString(36)}`);
  mkdirSync(logDir, { recursive: true });
  const verbose = options.verbose ?? process.env.CLUSTER_VERBOSE === '1';
  const shared = {
    // Every api must sign and check tokens with one secret: a socket may land on either.
    JWT_SECRET: process.env.JWT_SECRET ?? randomBytes(32).toString('hex'),
    // With a worker process of their own, the apis only enqueue jobs (the hosted shape).
    ...(workers > 0 ? { WORKER: 'off' } : {}),
  };
  const baseEnv = {
    ...process.env,
    ...shared,
    ...options.env,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
  };
  for (const [key, value] of Object.entries(baseEnv)) if (value === undefined) delete baseEnv[key];
  baseEnv.SWC_NODE_PROJECT = join(root, 'apps/api/tsconfig.json');
  baseEnv.WEB_DIST ??= '/nonexistent';

  /** @type {Map<string, ReturnType<typeof spawnProcess>>} */
  const processes = new Map();

  function spawnProcess(name, role, port) {
    // A worker serves its metrics on WORKER_PORT: any free one here, as several may run at once.
    const env = {
      ...baseEnv,
      PORT: String(port ?? 0),
      ...(role === 'worker' ? { WORKER: 'on', WORKER_PORT: '0' } : {}),
    };
    const entry = role === 'api' ? API_ENTRY : WORKER_ENTRY;
    const child = spawn(process.execPath, ['-r', '@swc-node/register', entry], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const file = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' });
    const lines = [];
    const keep = (chunk) => {
      file.write(chunk);
      if (verbose) process.stdout.write(`[${name}] ${chunk}`);
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      if (lines.length > LOG_LINES_KEPT) lines.splice(0, lines.length - LOG_LINES_KEPT);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const exited = new Promise((resolve) =>
      child.on('exit', (code, signal) => {
        file.end();
        resolve({ code, signal });
      }),
    );
    const proc = {
      name,
      role,
      port,
      url: port ? `http://127.0.0.1:${port}` : undefined,
      pid: child.pid,
      child,
      exited,
      get alive() {
        return child.exitCode === null && child.signalCode === null;
      },
      output: () => lines.join('\n'),
    };
    processes.set(name, proc);
    return proc;
  }

  async function waitHealthy(proc) {
    const deadline = Date.now() + STARTUP_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (!proc.alive) throw new Error(`${proc.name} exited before it was healthy:\n${proc.output()}`);
      if (proc.role === 'api') {
        const ok = await fetch(`${proc.url}/api/health`, { signal: AbortSignal.timeout(3_000) }).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) return;
      } else if ((await workerCount()) >= runningWorkers()) return;
      await sleep(250);
    }
    throw new Error(`${proc.name} was not healthy within ${STARTUP_TIMEOUT_MS / 1000}s:\n${proc.output()}`);
  }

  const runningWorkers = () => [...processes.values()].filter((p) => p.role === 'worker' && p.alive).length;
  async function workerCount() {
    const queue = new Queue(COMPACTION_QUEUE, {
      connection: { url: redisUrl, maxRetriesPerRequest: 1, connectTimeout: 2_000 },
      // the api's BullMQ prefix: REDIS_PREFIX, else BullMQ's default
      prefix: baseEnv.REDIS_PREFIX || 'bull',
    });
    queue.on('error', () => undefined);
    try {
      return (await queue.getWorkers()).length;
    } catch {
      return 0;
    } finally {
      await queue.close().catch(() => undefined);
    }
  }

  /** Starts (or starts again, on a new port) the named process and waits until it is healthy. */
  async function start(name) {
    const previous = processes.get(name);
    if (previous?.alive) throw new Error(`${name} is already running (pid ${previous.pid})`);
    const role = name.startsWith('worker') ? 'worker' : 'api';
    const proc = spawnProcess(
      name,
      role,
      role === 'api' ? (previous?.port ?? (await freePort())) : undefined,
    );
    await waitHealthy(proc);
    return proc;
  }

  /** SIGTERM, then SIGKILL if it has not exited within the grace period; resolves once it has. */
  async function stop(name) {
    const proc = processes.get(name);
    if (!proc || !proc.alive) return proc?.exited;
    proc.child.kill('SIGTERM');
    const timer = setTimeout(() => proc.child.kill('SIGKILL'), STOP_GRACE_MS);
    const result = await proc.exited;
    clearTimeout(timer);
    return result;
  }

  /** kill -9: the process gets no chance to clean up (leases, sockets, jobs stay as they were). */
  async function kill(name) {
    const proc = processes.get(name);
    if (!proc || !proc.alive) return proc?.exited;
    proc.child.kill('SIGKILL');
    return proc.exited;
  }

  async function stopAll({ keepDatabase = process.env.CLUSTER_KEEP_DB === '1' } = {}) {
    await Promise.all([...processes.keys()].map(stop));
    if (createdDb && !keepDatabase) await createdDb.drop();
  }

  const cluster = {
    databaseUrl,
    redisUrl,
    logDir,
    /** the database the cluster created, or null when DATABASE_URL was given */
    databaseName: createdDb?.name ?? null,
    get: (name) => {
      const proc = processes.get(name);
      if (!proc) throw new Error(`no process named ${name}`);
      return proc;
    },
    apis: () => [...processes.values()].filter((p) => p.role === 'api'),
    start,
    stop,
    kill,
    restart: async (name) => {
      await stop(name);
      return start(name);
    },
    stopAll,
    describe: () => ({
      databaseUrl,
      redisUrl,
      logDir,
      processes: [...processes.values()].map(({ name, role, pid, port, url, alive }) => ({
        name,
        role,
        pid,
        ...(port ? { port, url } : {}),
        alive,
      })),
    }),
  };

  try {
    // One api first: it migrates the new database; the rest then find nothing to do.
    const names = [
      ...Array.from({ length: apis }, (_, i) => `api-${i + 1}`),
      ...Array.from({ length: workers }, (_, i) => `worker-${i + 1}`),
    ];
    if (names.length > 0) await start(names[0]);
    for (const name of names.slice(1)) await start(name);
  } catch (error) {
    await stopAll().catch(() => undefined);
    throw error;
  }
  return cluster;
}

async function main() {
  const cluster = await startCluster();
  console.log(JSON.stringify(cluster.describe()));
  let stopping = false;
  const shutdown = async (signal) => {
    if (stopping) return;
    stopping = true;
    console.error(`[cluster] ${signal}: stopping`);
    await cluster.stopAll();
    console.error('[cluster] stopped');
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  for (const proc of cluster.describe().processes) {
    void cluster.get(proc.name).exited.then(({ code, signal }) => {
      if (!stopping)
        console.error(`[cluster] ${proc.name} exited (${signal ?? code}); see ${cluster.logDir}`);
    });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(`[cluster] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
