import { Logger, type Provider } from '@nestjs/common';
import { ClaudeModel, claudeConfigFrom } from '@sweatpants/agent-claude';
import type { AgentCatalog } from '@sweatpants/agent-runtime';
import { TreeStore } from '@sweatpants/tree-store';
import { AGENT_CATALOG } from '../agents/agent-catalog.module';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CLUSTER_CONFIG, loadClusterConfig, type ClusterConfig } from '../cluster/cluster-config';
import { BullJobQueue } from './bullmq-job-queue';
import { CompactionProcessor } from './compaction.processor';
import { InProcessJobQueue } from './in-process-job-queue';
import { checkProcessors, type JobProcessors } from './job-processors';
import { JOB_QUEUE, type JobQueue } from './job-queue';
import { ModelSummariser, OfflineSummariser, type Summariser } from './summariser';
import { GcRuns } from '../gc/gc-runs';
import { GcProcessor, type GcSweep } from '../gc/gc.processor';
import { GC_SWEEPS, gcSweepsProvider } from '../gc/gc-sweeps';
import { Metrics } from '../observability/metrics';

export const SUMMARISER = Symbol('Summariser');
export const JOB_PROCESSORS = Symbol('JobProcessors');

/** WORKER, REDIS_PREFIX, JOB_LOCK_MS and LEASE_MS from the environment. */
export const clusterConfigProvider: Provider = {
  provide: CLUSTER_CONFIG,
  useFactory: () => loadClusterConfig(process.env),
};

/** Claude when ANTHROPIC_API_KEY is set (with ANTHROPIC_BASE_URL and ANTHROPIC_MODEL), else offline. */
const summariserProvider: Provider = {
  provide: SUMMARISER,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig): Summariser => {
    const claude = claudeConfigFrom(config.anthropicEnv);
    if (!claude.ok) throw new Error(`invalid environment: ${claude.error.map((p) => p.field).join(', ')}`);
    if (claude.value) return new ModelSummariser(new ClaudeModel(claude.value));
    new Logger('Compaction').log('ANTHROPIC_API_KEY unset: compaction writes offline summaries');
    return new OfflineSummariser();
  },
};

/**
 * One processor per job name; building the map checks every name has one, so a process whose
 * registry misses a job fails at start rather than when the job arrives.
 */
const processorsProvider: Provider = {
  provide: JOB_PROCESSORS,
  inject: [
    TreeStore,
    SUMMARISER,
    GcRuns,
    APP_CONFIG,
    GC_SWEEPS,
    AGENT_CATALOG,
    { token: Metrics, optional: true },
  ],
  useFactory: (
    store: TreeStore,
    summariser: Summariser,
    runs: GcRuns,
    config: AppConfig,
    sweeps: readonly GcSweep[],
    agents: AgentCatalog,
    metrics: Metrics | null,
  ): JobProcessors => {
    const compaction = new CompactionProcessor(store, summariser, agents);
    const gc = new GcProcessor(
      store,
      runs,
      config.gc.policy,
      config.gc.dryRun,
      (removed) => metrics?.gcRemoved(removed),
      sweeps,
    );
    const processors: JobProcessors = {
      'conversation.compact': (payload, run) => compaction.process(payload, run),
      'tree.gc': (payload, run) => gc.process(payload, run),
    };
    return checkProcessors(processors);
  },
};

/** BullMQ when REDIS_URL is set, else the in-process queue running the same processors. */
const jobQueueProvider: Provider = {
  provide: JOB_QUEUE,
  inject: [APP_CONFIG, CLUSTER_CONFIG, JOB_PROCESSORS, { token: Metrics, optional: true }],
  useFactory: (
    config: AppConfig,
    cluster: ClusterConfig,
    processors: JobProcessors,
    metrics: Metrics | null,
  ): JobQueue => {
    let queue: JobQueue;
    if (config.redisUrl !== undefined) queue = new BullJobQueue(config.redisUrl, cluster.queuePrefix);
    else {
      new Logger('Jobs').log(
        'REDIS_URL unset: compaction and gc jobs run in-process, through the same processors',
      );
      queue = new InProcessJobQueue(processors, undefined, (job, outcome) =>
        metrics?.jobFinished(job, outcome),
      );
    }
    metrics?.read({ queueDepth: () => queue.counts() });
    return queue;
  },
};

/** What a process that runs jobs needs (with CLUSTER_CONFIG): the processors and their summariser. */
export const processorProviders: Provider[] = [
  summariserProvider,
  GcRuns,
  gcSweepsProvider,
  processorsProvider,
];

/** What the api needs besides: the queue. */
export const queueProviders: Provider[] = [...processorProviders, jobQueueProvider];
