import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Runner, type LogSink } from '@sweatpants/agent-runtime';
import type { ConversationRecord, ConversationStatus, ElicitEvent } from '@sweatpants/domain';
import { TreeStore } from '@sweatpants/tree-store';
import { AgentRegistry } from '../agents/agent-registry';
import { CLUSTER_CONFIG, type ClusterConfig } from '../config/cluster-config';
import { ConversationLease } from '../cluster/conversation-lease';
import { CompactionRequests } from './compaction-requests';
import { ConversationMailboxes } from './conversation-mailbox';
import { ApiError } from '../errors/api-error';
import { AgentModels } from '../model/agent-models';
import { Metrics } from '../observability/metrics';
import { ConversationEvents } from './conversation-events';
import { RunnerOutbox } from './runner-outbox';
import { TreeStorePort } from './tree-store-port';

/** An open runner and the outbox that remembers its elicits' nodes. */
interface Driven {
  runner: Runner;
  outbox: RunnerOutbox;
}

/** How many idle sweeps fit in one idle period: a runner closes within 1¼ periods of its last use. */
const SWEEPS_PER_IDLE_PERIOD = 4;

/**
 * One Runner per active conversation, opened on demand from the tree (Runner.open resumes a turn
 * that was cut off) and closed at shutdown. Each conversation has one mailbox (`inMailbox`, see
 * ConversationMailboxes) that every command and every change of its runner goes through.
 *
 * Exactly one api process drives a conversation: `open`, the only place a runner comes to life,
 * does so only under the conversation's lease (ConversationCommands sends every command to the
 * holder), and a runner whose lease was lost is closed at once.
 *
 * A runner holds its agent's coroutines in memory while it waits on a question; the tree holds
 * everything it needs to rebuild them. So a runner with nothing running closes once it has not been
 * used for RUNNER_IDLE_MS, and the next command opens it again (Runner.open replays the turn up to
 * the question and asks it again under the same id): ten thousand conversations waiting on their
 * users cost no more than the few being talked to.
 */
@Injectable()
export class RunnerRegistry implements OnApplicationShutdown {
  private readonly logger = new Logger('Runners');
  private readonly driven = new Map<string, Promise<Driven>>();
  private readonly mailboxes = new ConversationMailboxes();
  private readonly logs: LogSink;
  /** when each open conversation last had a command */
  private readonly lastUsed = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly store: TreeStore,
    private readonly agents: AgentRegistry,
    private readonly models: AgentModels,
    private readonly events: ConversationEvents,
    private readonly lease: ConversationLease,
    @Inject(CLUSTER_CONFIG) private readonly cluster: ClusterConfig,
    private readonly compaction: CompactionRequests,
    private readonly metrics: Metrics,
  ) {
    metrics.read({ openRunners: () => this.driven.size });
    // Another process drives it now: this runner must not write (HEAD's compare-and-swap would
    // refuse it anyway) nor answer for the conversation.
    lease.onLost((conversationId) => void this.close(conversationId));
    const idleMs = cluster.runnerIdleMs;
    this.sweeper = setInterval(() => void this.closeIdle(idleMs), idleMs / SWEEPS_PER_IDLE_PERIOD);
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

  /** The conversation's runner, opened from the tree if it is not open (or went stale). */
  async runner(conversation: ConversationRecord): Promise<Runner> {
    return (await this.drive(conversation)).runner;
  }

  /** The runner if one is open here, without opening one (a listing should not start turns). */
  async peek(conversationId: string): Promise<Runner | undefined> {
    const driven = this.driven.get(conversationId);
    return driven ? (await driven.catch(() => undefined))?.runner : undefined;
  }

  /** How many runners this process holds open (a gauge for operators, and the idle spec). */
  get openCount(): number {
    return this.driven.size;
  }

  /** PROTOCOL.md's status: `waiting` when an elicit is pending and nothing runs. */
  statusOf(runner: Runner | undefined): ConversationStatus {
    if (!runner) return 'idle';
    if (runner.status === 'running') return 'running';
    return runner.pending().length > 0 ? 'waiting' : 'idle';
  }

  /** What a joining client is sent again: each pending elicit, with the node that asked it. */
  async pendingEvents(conversation: ConversationRecord): Promise<ElicitEvent[]> {
    const { runner, outbox } = await this.drive(conversation);
    const head = runner.head ?? conversation.head;
    return runner.pending().map((request) => outbox.elicitEvent(request, head));
  }

  /**
   * Runs `work` in the conversation's mailbox (ConversationMailboxes): after everything posted
   * before it, and alone, so two commands never interleave their cancel / move / reopen steps.
   */
  inMailbox<T>(conversationId: string, work: () => Promise<T>): Promise<T> {
    return this.mailboxes.post(conversationId, work);
  }

  /** Stops the runner without writing (it holds nothing the tree does not). */
  async close(conversationId: string): Promise<void> {
    const driven = this.driven.get(conversationId);
    if (!driven) return;
    this.driven.delete(conversationId);
    this.lastUsed.delete(conversationId);
    this.metrics.runnerClosed(conversationId);
    const open = await driven.catch(() => undefined);
    await open?.runner.close();
  }

  /**
   * After HEAD moved under the runner: a new runner from the tree (which resumes a turn whose last
   * user message has no reply), announced to the room with its status and what it waits on.
   */
  async reopen(conversation: ConversationRecord): Promise<Runner> {
    const conversationId = conversation.id;
    const before = (await this.peek(conversationId))?.pending() ?? [];
    await this.close(conversationId);
    const { runner, outbox } = await this.drive(conversation);
    const after = runner.pending();
    for (const { elicitId } of before) {
      if (!after.some((r) => r.elicitId === elicitId))
        this.events.emit('elicit:withdrawn', { conversationId, elicitId, reason: 'head moved' });
    }
    this.events.emit('status', { conversationId, status: this.statusOf(runner) });
    const head = runner.head ?? conversation.head;
    for (const request of after) this.events.emit('elicit', outbox.elicitEvent(request, head));
    return runner;
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.sweeper);
    const ids = [...this.driven.keys()];
    await Promise.all(ids.map((id) => this.close(id)));
    if (ids.length > 0) this.logger.log(`closed ${ids.length} runner(s)`);
  }

  /**
   * Closes each runner that has nothing running and no command for `idleMs`, and lets its lease
   * go, so that another process may drive the conversation next. A runner in the middle of a turn
   * (a model call, a tool) stays: closing it would throw that work away.
   */
  private async closeIdle(idleMs: number): Promise<void> {
    const before = Date.now() - idleMs;
    const idle = [...this.lastUsed].filter(([, at]) => at < before).map(([id]) => id);
    for (const conversationId of idle) {
      await this.inMailbox(conversationId, async () => {
        const runner = await this.peek(conversationId);
        const at = this.lastUsed.get(conversationId);
        if (!runner || runner.status === 'running' || at === undefined || at >= before) return;
        await this.close(conversationId);
        await this.lease.release(conversationId).catch(() => undefined);
      }).catch((error: unknown) =>
        this.logger.warn(
          `closing idle ${conversationId}: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    }
  }

  private async reopenStale(conversation: ConversationRecord): Promise<void> {
    try {
      await this.inMailbox(conversation.id, async () => {
        const runner = await this.peek(conversation.id);
        if (runner?.stale) await this.reopen(conversation);
      });
    } catch (error) {
      this.logger.warn(
        `reopening ${conversation.id}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private async drive(conversation: ConversationRecord): Promise<Driven> {
    this.lastUsed.set(conversation.id, Date.now());
    let driven = this.driven.get(conversation.id);
    if (driven) {
      const open = await driven.catch(() => undefined);
      if (open && !open.runner.stale) return open;
      // Stale (HEAD moved under it) or failed to open: start again from the tree.
      if (this.driven.get(conversation.id) === driven) {
        this.driven.delete(conversation.id);
        await open?.runner.close();
      }
      return this.drive(conversation);
    }
    driven = this.open(conversation);
    this.driven.set(conversation.id, driven);
    driven.catch(() => {
      if (this.driven.get(conversation.id) !== driven) return;
      this.driven.delete(conversation.id);
      this.lastUsed.delete(conversation.id);
    });
    return driven;
  }

  private async open(conversation: ConversationRecord): Promise<Driven> {
    if ((await this.lease.acquire(conversation.id)).kind === 'other') {
      throw new ApiError('unavailable', 'another api process drives this conversation; try again');
    }
    const entry = this.agents.get(conversation.agent);
    const outbox = new RunnerOutbox(conversation.id, this.events, this.metrics);
    const provide = this.agents.servicesFor(conversation);
    const runner = await Runner.open({
      conversationId: conversation.id,
      agent: entry.definition,
      port: new TreeStorePort(this.store, this.events, this.compaction, `agent:${entry.definition.name}`),
      model: this.models.for(conversation.agent, entry),
      outbox,
      logs: this.logs,
      ...(provide ? { provide } : {}),
      // A turn that found HEAD moved (a compaction landed, a closed runner's write came late) would
      // leave its clients waiting for an elicit nobody sends: reopen at once, from the tree.
      onStale: () => void this.reopenStale(conversation),
    });
    return { runner, outbox };
  }
}
