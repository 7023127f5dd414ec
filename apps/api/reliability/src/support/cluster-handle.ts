import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** The typed face of scripts/cluster.mjs (plain JavaScript, so `npm run cluster` needs no compiler). */
export interface ClusterOptions {
  apis?: number;
  workers?: number;
  databaseUrl?: string;
  redisUrl?: string;
  /** added to every process's environment; undefined removes a variable */
  env?: Record<string, string | undefined>;
  logDir?: string;
  verbose?: boolean;
}

export interface ClusterProcess {
  name: string;
  role: 'api' | 'worker';
  pid: number;
  /** api processes only */
  port: number | undefined;
  url: string | undefined;
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly alive: boolean;
  output(): string;
}

export interface RunningCluster {
  databaseUrl: string;
  redisUrl: string;
  logDir: string;
  databaseName: string | null;
  get(name: string): ClusterProcess;
  apis(): ClusterProcess[];
  start(name: string): Promise<ClusterProcess>;
  stop(name: string): Promise<unknown>;
  /** kill -9 */
  kill(name: string): Promise<unknown>;
  restart(name: string): Promise<ClusterProcess>;
  stopAll(options?: { keepDatabase?: boolean }): Promise<void>;
  describe(): unknown;
}

interface ClusterModule {
  startCluster(options?: ClusterOptions): Promise<RunningCluster>;
  workerAvailable(): boolean;
  freePort(): Promise<number>;
}

// Node 20.19+ loads an ES module through require when it has no top-level await, as cluster.mjs.
const CLUSTER_SCRIPT = join(__dirname, '../../../../../scripts/cluster.mjs');
let loaded: Promise<ClusterModule> | undefined;
const clusterModule = (): Promise<ClusterModule> =>
  (loaded ??= import(CLUSTER_SCRIPT) as Promise<ClusterModule>);

export const startCluster = async (options?: ClusterOptions): Promise<RunningCluster> =>
  (await clusterModule()).startCluster(options);
export const workerAvailable = async (): Promise<boolean> => (await clusterModule()).workerAvailable();
export const freePort = async (): Promise<number> => (await clusterModule()).freePort();

/** The base URL of an api process that is running. */
export function apiUrl(cluster: RunningCluster, name: string): string {
  const url = cluster.get(name).url;
  if (!url) throw new Error(`${name} is not an api process`);
  return url;
}
