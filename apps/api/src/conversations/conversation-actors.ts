import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { LogSink } from '@sweatpants/agent-runtime';
import { Runner } from '@sweatpants/agent-runtime/host';
import type {
  CommandResult,
  ConversationCommand,
  ConversationRecord,
  ListedConversation,
  TreeNode,
} from '@sweatpants/domain';
import { StorePort, TreeStore } from '@sweatpants/tree-store';
import { context } from '@opentelemetry/api';
import { createScope, type Scope } from 'effection';
import { AgentRegistry } from '../agents/agent-registry';
import { CLUSTER_CONFIG, type ClusterConfig } from '../config/cluster-config';
import { ConversationLease } from '../cluster/conversation-lease';
import { ApiError } from '../errors/api-error';
import { AppEvents, OnAppEvent, type AppEventMap } from '../events/app-events';
import type { AuthUser } from '../auth/auth-user';
import { AgentModels } from '../model/agent-models';
import { ModelChoice } from '../model/model-choice';
import { Metrics } from '../observability/metrics';
import { SpendLimits } from '../spend/spend-limits';
import { ConversationTraces } from '../tracing/conversation-traces';
import type { ActorHost, Driven } from './actor-host';
import { ConversationActor, useConversationActor, type Notice } from './conversation-actor';
import { ConversationEvents } from './conversation-events';
import { ConversationTitles } from './conversation-titles';
import { conversationView } from './conversation-view';
import { RunnerOutbox } from './runner-outbox';

/** How many idle sweeps fit in one idle period: a runner closes within 1¼ periods of its last use. */
const SWEEPS_PER_IDLE_PERIOD = 4;

/**
 * This process's conversation actors (ConversationActor), one per conversation it has work for,
 * each an effection resource of one scope that ends at shutdown. Every command (`command`) and
 * every notice of what happened in the process (`tell`) is a letter to the conversation's actor.
 *
 * Exactly one api process drives a conversation: an actor opens its runner only under the
 * conversation's lease (ConversationCommands sends every command to the holder), and a runner
 * whose lease was lost is closed as the actor's next letter (after the one under way, which a turn
 * outlives: a letter only starts or answers it).
 *
 * A runner holds its agent's coroutines in memory while it waits on a question; the tree holds
 * everything it needs to rebuild them. So an actor whose runner has nothing running retires once
 * it has had no letter for RUNNER_IDLE_MS (its runner closes, its lease goes), and the next command
 * starts a new one (Runner.open replays the turn up to the question and asks it again under the
 * same id): ten thousand conversations waiting on their users cost no more than the few being
 * talked to.
 *
 * A conversation's runner is reached only through its actor's letters. `peek` and `listed` read
 * what an open runner says without a letter (a listing must not wait behind a turn).
 */
@Injectable()
export class ConversationActors implements OnApplicationShutdown {
  private readonly logger = new Logger('Runners');
  private readonly actors = new Map<string, ConversationActor>();
  /** one storage port per agent (its writes are authored `agent:<name>`) */
  private readonly ports = new Map<string, StorePort>();
  private readonly scope: Scope;
  private readonly destroy: () => Promise<void>;
  private readonly host: ActorHost;
  private readonly logs: LogSink;
  private readonly sweeper: NodeJS.Timeout;
  /** who acts on each conversation now, and how (see ActorHost.acting) */
  private readonly acting = new Map<string, { actorId: string; note: string }>();

  constructor(
    private readonly store: TreeStore,
    private readonly agents: AgentRegistry,
    private readonly models: AgentModels,
    private readonly events: ConversationEvents,
    private readonly lease: ConversationLease,
    @Inject(CLUSTER_CONFIG) cluster: ClusterConfig,
    private readonly appEvents: AppEvents,
    private readonly metrics: Metrics,
    titles: ConversationTitles,
    private readonly model: ModelChoice,
    private readonly traces: ConversationTraces,
    private readonly spend: SpendLimits,
  ) {
    [this.scope, this.destroy] = createScope();
    this.host = {
      open: (record, startPath) => this.openRunner(record, startPath),
      storedHead: (conversationId) => this.storedHead(conversationId),
      releaseLease: (conversationId) => this.lease.release(conversationId),
      runnerClosed: (conversationId) => metrics.runnerClosed(conversationId),
      forget: (conversationId) => {
        this.actors.delete(conversationId);
        traces.forget(conversationId);
      },
      acting: (conversationId, actor) => {
        if (actor) this.acting.set(conversationId, actor);
        else this.acting.delete(conversationId);
      },
      events,
      store,
      titles,
      model: model.kind,
      traces,
    };
    metrics.read({ openRunners: () => this.openCount });
    const idleMs = cluster.runnerIdleMs;
    this.sweeper = setInterval(() => void this.retireIdle(idleMs), idleMs / SWEEPS_PER_IDLE_PERIOD);
    this.sweeper.unref();
    const logger = new Logger('Agent');
    this.logs = {
      write: (level, message, fields) => {
        const line = fields ? `${message} ${JSON.stringify(fields)}` : message;
        if (level === 'error') logger.error(line);
        else if (level === 'warn') logger.warn(line);
        else if (level === 'info') logger.log(line);
      },
    };
  }

  /**
   * Handles `command` at the conversation's actor (started if it has none here): after everything
   * posted before it, and alone. The caller checked `user` may touch `record`, and that this
   * process is where the conversation is driven (ConversationCommands).
   */
  command<C extends ConversationCommand>(
    user: AuthUser,
    record: ConversationRecord,
    command: C,
  ): Promise<CommandResult<C['kind']>> {
    return this.actorFor(record.id).command(user, record, command);
  }

  /** Tells the conversation's actor `notice`, when it has a runner open here; otherwise nothing. */
  async tellIfOpen(conversationId: string, notice: Notice): Promise<void> {
    const actor = this.actors.get(conversationId);
    if (actor?.peek()) await actor.tell(notice);
  }

  /** The open runner, if any, without opening one or waiting (a listing should not start turns). */
  peek(conversationId: string): Runner | undefined {
    return this.actors.get(conversationId)?.peek();
  }

  /** PROTOCOL.md's Conversation as a listing shows it: what a runner open here says, if one is. */
  listed(record: ConversationRecord): ListedConversation {
    return conversationView(record, this.peek(record.id), this.model.kind);
  }

  /** How many runners this process holds open (a gauge for operators, and the idle spec). */
  get openCount(): number {
    let open = 0;
    for (const actor of this.actors.values()) if (actor.peek()) open++;
    return open;
  }

  /** Stops the conversation's runner here, if one is open, after the letters before it. */
  async close(conversationId: string): Promise<void> {
    await this.actors.get(conversationId)?.tell({ kind: 'close' });
  }

  /**
   * Another process drives the conversation now: this runner must not write (HEAD's compare-and-
   * swap would refuse it anyway) nor answer for the conversation. Closed as a letter, so that it
   * never closes under a command halfway through.
   */
  @OnAppEvent('lease.lost')
  async leaseLost({ conversationId }: AppEventMap['lease.lost']): Promise<void> {
    await this.close(conversationId);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.sweeper);
    const open = this.openCount;
    await this.destroy();
    if (open > 0) this.logger.log(`closed ${open} runner(s)`);
  }

  private actorFor(conversationId: string): ConversationActor {
    const known = this.actors.get(conversationId);
    if (known) return known;
    const actor = new ConversationActor(conversationId, this.host);
    this.actors.set(conversationId, actor);
    this.scope.run(function* () {
      yield* useConversationActor(actor);
      yield* actor.untilRetired();
    });
    return actor;
  }

  /**
   * Retires each actor that has had no letter for `idleMs` and whose runner has nothing running,
   * letting its lease go, so that another process may drive the conversation next. A runner in the
   * middle of a turn (a model call, a tool) stays: closing it would throw that work away.
   */
  private async retireIdle(idleMs: number): Promise<void> {
    const since = Date.now() - idleMs;
    const idle = [...this.actors.values()].filter((actor) => actor.lastUsed < since && actor.backlog === 0);
    for (const actor of idle) {
      await actor
        .tell({ kind: 'retire', idleSince: since })
        .catch((error: unknown) =>
          this.logger.warn(
            `closing idle ${actor.conversationId}: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
    }
  }

  /** A turn found HEAD moved under its runner: reopen it, as a letter, on the stored HEAD. */
  private reopenStale(record: ConversationRecord): void {
    this.tellIfOpen(record.id, { kind: 'stale' }).catch((error: unknown) =>
      this.logger.warn(`reopening ${record.id}: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  private async storedHead(conversationId: string): Promise<string> {
    const head = await this.store.head(conversationId);
    if (!head) throw new ApiError('not_found', 'no such conversation');
    return head.id;
  }

  private async openRunner(record: ConversationRecord, startPath?: readonly TreeNode[]): Promise<Driven> {
    if ((await this.lease.acquire(record.id)).kind === 'other') {
      throw new ApiError('unavailable', 'another api process drives this conversation; try again');
    }
    const entry = this.agents.get(record.agent);
    const outbox = new RunnerOutbox(record.id, this.events, this.metrics, this.traces);
    const runner = await Runner.open({
      conversationId: record.id,
      agent: entry.definition,
      // Each append, model call and tool of its turns a span of the command that drove it.
      port: this.traces.port(this.portFor(entry.definition.name)),
      // Every call held to its owner's budget (a refused one is a failed span saying over_budget).
      model: this.traces.model(
        record.id,
        this.spend.limited(this.models.for(record.agent, entry), record.ownerId, record.id),
      ),
      outbox,
      logs: this.logs,
      provide: this.traces.provide(record.id, this.agents.servicesFor(record)),
      ...(startPath ? { startPath } : {}),
      // A turn that found HEAD moved (a compaction landed, a closed runner's write came late) would
      // leave its clients waiting for an elicit nobody sends: reopen at once, from the tree.
      onStale: () => this.reopenStale(record),
    });
    return { runner, outbox };
  }

  /**
   * The tree store as the agent's runners see it: each write said to the conversation's sockets as
   * it lands (`node` events, then `head` with its reflog entry), and compaction asked for as
   * `compaction.requested`, which the compaction queue hears.
   */
  private portFor(agent: string): StorePort {
    const agentActor = `agent:${agent}`;
    let port = this.ports.get(agentActor);
    if (!port) {
      port = new StorePort(this.store, agentActor, {
        appended: (conversationId, written) => this.events.appended(conversationId, written),
        // The job continues the trace of the command whose turn asked for it.
        compactionRequested: (input) =>
          context.with(this.traces.turnContext(input.conversationId), () =>
            this.requestCompaction({ ...input, requestedBy: agentActor }),
          ),
        noteFor: (conversationId, actorId) => {
          const acting = this.acting.get(conversationId);
          return acting?.actorId === actorId ? acting.note : undefined;
        },
      });
      this.ports.set(agentActor, port);
    }
    return port;
  }

  /**
   * Fire and forget (the port's contract): a request nobody hears (a process built without
   * compaction) or that fails costs a longer context, not a turn; either is logged.
   */
  private async requestCompaction(input: AppEventMap['compaction.requested']): Promise<void> {
    if (!this.appEvents.heard('compaction.requested')) {
      this.logger.warn(
        `no compaction is wired: not compacting ${input.conversationId} at ${input.head.slice(0, 12)}`,
      );
      return;
    }
    await this.appEvents.emitAsync('compaction.requested', input);
  }
}
