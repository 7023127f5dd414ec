import { Injectable } from '@nestjs/common';
import type { ModelRequest } from '@sweatpants/agent-runtime';
import type { CompleteOptions, Model } from '@sweatpants/agent-runtime/host';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds: a turn of the offline model takes milliseconds, one of Claude with tools a minute. */
const TURN_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 80, 160];
/** Seconds a question waits for its answer: a tap, a thought, a coffee, a day. */
const WAIT_BUCKETS = [1, 5, 15, 30, 60, 300, 900, 3600, 4 * 3600, 24 * 3600];
/** The most conversations whose open turn or questions are timed at once (a bound, not a limit). */
const MAX_TRACKED = 50_000;

type Status = 'idle' | 'running' | 'waiting';

/**
 * The api's Prometheus metrics (`GET /api/metrics`): one registry per process (per app, so two
 * apps in one test process do not mix), with prom-client's process metrics and ours. Owners report
 * through the methods below, or hand a reader for what they already count (open runners, leases
 * held, socket connections, queue depth), read at scrape time.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();

  private readonly turns = new Histogram({
    name: 'sweatpants_turn_duration_seconds',
    help: "A turn: from the agent starting to work on the user's input to it waiting for them again",
    buckets: TURN_BUCKETS,
    registers: [this.registry],
  });
  private readonly modelCalls = new Histogram({
    name: 'sweatpants_model_call_duration_seconds',
    help: "One call to the model, by model kind and outcome (ok, or the error's code)",
    labelNames: ['model', 'outcome'] as const,
    buckets: TURN_BUCKETS,
    registers: [this.registry],
  });
  private readonly modelTokens = new Counter({
    name: 'sweatpants_model_tokens_total',
    help: 'Tokens of the model calls answered, by model kind and how they are billed: input (in full), cache_write, cache_read, output',
    labelNames: ['model', 'kind'] as const,
    registers: [this.registry],
  });
  private readonly elicitWaits = new Histogram({
    name: 'sweatpants_elicit_wait_seconds',
    help: 'How long a question waited before the user answered it, by elicit type',
    labelNames: ['type'] as const,
    buckets: WAIT_BUCKETS,
    registers: [this.registry],
  });
  private readonly takeovers = new Counter({
    name: 'sweatpants_lease_takeovers_total',
    help: "Conversations this process took over after another process's lease on them ended",
    registers: [this.registry],
  });
  private readonly jobOutcomes = new Counter({
    name: 'sweatpants_job_outcomes_total',
    help: 'Background jobs finished, by job name and outcome (completed, retried, failed)',
    labelNames: ['job', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly spend = new Counter({
    name: 'sweatpants_model_spend_dollars_total',
    help: "What people's model calls cost, in US dollars at the model's published prices, by the model that answered",
    labelNames: ['model'] as const,
    registers: [this.registry],
  });
  private readonly spendRefusals = new Counter({
    name: 'sweatpants_spend_refusals_total',
    help: "Model calls not made because the person's budget was spent, by reason (the daily or the monthly budget)",
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  private readonly gcRemovals = new Counter({
    name: 'sweatpants_gc_removed_total',
    help: 'What garbage collection removed (dry runs not counted), by kind: nodes or reflog entries',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  private readonly readers = {
    openRunners: (): number => 0,
    leasesHeld: (): number => 0,
    socketConnections: (): number => 0,
    queueDepth: async (): Promise<Record<string, number>> => ({}),
  };
  /** when each conversation's running turn started */
  private readonly turnStarted = new Map<string, number>();
  /** each conversation's open questions: id → type and when asked */
  private readonly asked = new Map<string, Map<string, { type: string; at: number }>>();

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'sweatpants_' });
    // prom-client names these sums of gauges `_total`, which Prometheus keeps for counters
    // (`promtool check metrics` refuses them); the same figures stay, by type, in the gauges
    // without the suffix (sweatpants_nodejs_active_handles, …_requests, …_resources).
    for (const name of ['active_handles', 'active_requests', 'active_resources']) {
      this.registry.removeSingleMetric(`sweatpants_nodejs_${name}_total`);
    }
    const readers = this.readers;
    new Gauge({
      name: 'sweatpants_open_runners',
      help: 'Conversations whose agent is in memory in this process',
      registers: [this.registry],
      collect() {
        this.set(readers.openRunners());
      },
    });
    new Gauge({
      name: 'sweatpants_leases_held',
      help: 'Conversation leases this process holds (the conversations it drives)',
      registers: [this.registry],
      collect() {
        this.set(readers.leasesHeld());
      },
    });
    new Gauge({
      name: 'sweatpants_socket_connections',
      help: 'Socket.IO clients connected to this process',
      registers: [this.registry],
      collect() {
        this.set(readers.socketConnections());
      },
    });
    new Gauge({
      name: 'sweatpants_queue_jobs',
      help: 'Background jobs in the queue, by state (all processes: the queue is shared)',
      labelNames: ['state'] as const,
      registers: [this.registry],
      async collect() {
        const depth = await readers.queueDepth().catch(() => ({}));
        this.reset();
        for (const [state, count] of Object.entries(depth)) this.set({ state }, count);
      },
    });
  }

  /** Where open runners, leases, sockets and the queue are counted, read at each scrape. */
  read(readers: Partial<Metrics['readers']>): void {
    Object.assign(this.readers, readers);
  }

  /** A runner's status changed: a turn starts at `running` and ends when it waits again. */
  runnerStatus(conversationId: string, status: Status): void {
    const now = performance.now();
    if (status === 'running') {
      if (!this.turnStarted.has(conversationId)) this.track(this.turnStarted, conversationId, now);
      // The user answered: the questions that waited are answered.
      const open = this.asked.get(conversationId);
      if (open) {
        for (const { type, at } of open.values()) this.elicitWaits.observe({ type }, (now - at) / 1000);
        this.asked.delete(conversationId);
      }
      return;
    }
    const started = this.turnStarted.get(conversationId);
    if (started === undefined) return;
    this.turnStarted.delete(conversationId);
    this.turns.observe((now - started) / 1000);
  }

  elicitAsked(conversationId: string, elicitId: string, type: string): void {
    let open = this.asked.get(conversationId);
    if (!open) {
      open = new Map();
      this.track(this.asked, conversationId, open);
    }
    open.set(elicitId, { type, at: performance.now() });
  }

  /** A question taken back (a rewind, a cancel): it was not answered, so its wait is not a wait. */
  elicitWithdrawn(conversationId: string, elicitId: string): void {
    this.asked.get(conversationId)?.delete(elicitId);
  }

  /** The runner is gone (idle, lost its lease): nothing of it is timing any more. */
  runnerClosed(conversationId: string): void {
    this.turnStarted.delete(conversationId);
    this.asked.delete(conversationId);
  }

  leaseTakenOver(): void {
    this.takeovers.inc();
  }

  jobFinished(job: string, outcome: 'completed' | 'retried' | 'failed'): void {
    this.jobOutcomes.inc({ job, outcome });
  }

  /** A model call of someone's cost `usd` on `model` (the spend limit settles every call). */
  modelSpent(model: string, usd: number): void {
    this.spend.inc({ model }, usd);
  }

  /** A model call was not made: the person's daily or monthly budget was spent. */
  spendRefused(reason: 'daily' | 'monthly'): void {
    this.spendRefusals.inc({ reason });
  }

  /** The gc job's report: the name the gc processor calls. */
  gcRemoved(counts: { nodes: number; reflogEntries: number; dryRun: boolean }): void {
    if (counts.dryRun) return;
    this.gcRemovals.inc({ kind: 'nodes' }, counts.nodes);
    this.gcRemovals.inc({ kind: 'reflog_entries' }, counts.reflogEntries);
  }

  /** `model`, timed: each call observed with its kind and outcome. */
  timed(model: Model): Model {
    const calls = this.modelCalls;
    const tokens = this.modelTokens;
    return {
      kind: model.kind,
      name: model.name,
      async complete(request: ModelRequest, options: CompleteOptions) {
        const end = calls.startTimer({ model: model.kind });
        const reply = await model.complete(request, options).catch((error: unknown) => {
          end({ outcome: 'error' });
          throw error;
        });
        end({ outcome: reply.ok ? 'ok' : reply.error.code });
        if (reply.ok) {
          const { inputTokens, cacheWriteTokens = 0, cacheReadTokens = 0, outputTokens } = reply.value.usage;
          tokens.inc({ model: model.kind, kind: 'input' }, inputTokens);
          tokens.inc({ model: model.kind, kind: 'cache_write' }, cacheWriteTokens);
          tokens.inc({ model: model.kind, kind: 'cache_read' }, cacheReadTokens);
          tokens.inc({ model: model.kind, kind: 'output' }, outputTokens);
        }
        return reply;
      },
    };
  }

  /** The text a scrape answers. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private track<V>(map: Map<string, V>, key: string, value: V): void {
    // A conversation abandoned mid-turn whose runner never closes must not grow the map forever.
    if (map.size >= MAX_TRACKED) map.delete(map.keys().next().value as string);
    map.set(key, value);
  }
}
