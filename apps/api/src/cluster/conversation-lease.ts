import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Metrics } from '../observability/metrics';
import { AppEvents } from '../events/app-events';
import { ClusterRedis } from '../redis/cluster-redis';

/** Renews the lease this many times per lease period, so one late renewal does not lose it. */
const RENEWALS_PER_LEASE = 3;
/** How many conversations driven elsewhere are remembered, to count a takeover when one is taken. */
const MAX_SEEN_ELSEWHERE = 10_000;

// Compare-and-renew and compare-and-delete: a process only touches a lease it still holds. A
// renewal that finds the key gone (it expired while this process was slow, or Redis restarted
// empty) takes it again: no other process can have driven the conversation, or the key would
// name that process.
const RENEW = `
local holder = redis.call('get', KEYS[1])
if holder == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
if not holder then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** Who drives a conversation: this process, another (by id), or no one yet. */
export type LeaseHolder = { kind: 'self' } | { kind: 'other'; processId: string };

/**
 * Exactly one api process drives a conversation: the one holding its lease, a Redis key set with
 * SET NX PX and renewed while held. Redis rather than Postgres because a lease is coordination, not
 * data (DESIGN.md: Postgres is the system of record, Redis carries fan-out): an advisory lock
 * would pin a database connection per driven conversation, and a lease row would write to the
 * record every few seconds per conversation. Losing Redis loses no conversation: the fencing is
 * HEAD's compare-and-swap, so a process that kept writing after losing its lease gets a conflict.
 * When a holder dies its lease expires after LEASE_MS and the next command takes it.
 */
@Injectable()
export class ConversationLease implements OnApplicationShutdown {
  private readonly logger = new Logger('Lease');
  private readonly held = new Set<string>();
  /**
   * Conversations last seen driven by another process: taking one of them is a takeover (its
   * holder died or let go). Bounded: the oldest is forgotten past MAX_SEEN_ELSEWHERE.
   */
  private readonly seenElsewhere = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly cluster: ClusterRedis,
    private readonly metrics: Metrics,
    private readonly events: AppEvents,
  ) {
    metrics.read({ leasesHeld: () => this.held.size });
  }

  get processId(): string {
    return this.cluster.processId;
  }

  /** Takes the lease if it is free (or already ours); otherwise says who holds it. */
  async acquire(conversationId: string): Promise<LeaseHolder> {
    const redis = this.cluster.client;
    // Held: the renewals keep it, and one that fails says so (`lease.lost`) within a third of the lease.
    if (!redis || this.held.has(conversationId)) return { kind: 'self' };
    const key = this.key(conversationId);
    const ms = this.cluster.settings.leaseMs;
    const me = this.cluster.processId;
    const taken = await redis.set(key, me, 'PX', ms, 'NX');
    const holder = taken === 'OK' ? me : await redis.get(key);
    if (holder === me) {
      if (taken !== 'OK') await redis.eval(RENEW, 1, key, me, ms);
      this.hold(conversationId);
      if (this.seenElsewhere.delete(conversationId)) this.metrics.leaseTakenOver();
      return { kind: 'self' };
    }
    // Expired between the SET and the GET: try once more.
    if (holder === null) return this.acquire(conversationId);
    if (this.seenElsewhere.size >= MAX_SEEN_ELSEWHERE) {
      this.seenElsewhere.delete(this.seenElsewhere.values().next().value as string);
    }
    this.seenElsewhere.add(conversationId);
    return { kind: 'other', processId: holder };
  }

  /** Whether this process holds the lease (as far as it knows: a lost renewal clears it). */
  holds(conversationId: string): boolean {
    return this.cluster.client === null || this.held.has(conversationId);
  }

  async release(conversationId: string): Promise<void> {
    this.held.delete(conversationId);
    await this.cluster.client?.eval(RELEASE, 1, this.key(conversationId), this.cluster.processId);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    // Handing leases back lets another process take over at once rather than after LEASE_MS.
    await Promise.all([...this.held].map((id) => this.release(id).catch(() => undefined)));
  }

  private hold(conversationId: string): void {
    this.held.add(conversationId);
    this.timer ??= setInterval(
      () => void this.renewAll(),
      this.cluster.settings.leaseMs / RENEWALS_PER_LEASE,
    );
    this.timer.unref();
  }

  /** Renews every held lease in one round trip, however many there are. */
  private async renewAll(): Promise<void> {
    const redis = this.cluster.client;
    const ids = [...this.held];
    if (!redis || ids.length === 0) return;
    const batch = redis.pipeline();
    for (const id of ids)
      batch.eval(RENEW, 1, this.key(id), this.cluster.processId, this.cluster.settings.leaseMs);
    let replies: [Error | null, unknown][] | null;
    try {
      replies = await batch.exec();
    } catch (error) {
      // Redis is away: keep driving (HEAD's compare-and-swap fences a second driver) and retry.
      this.logger.warn(`renewing ${ids.length} lease(s): ${String(error)}`);
      return;
    }
    ids.forEach((id, i) => {
      const [error, kept] = replies?.[i] ?? [null, 1];
      if (error) return this.logger.warn(`renewing the lease of ${id}: ${error.message}`);
      if (kept === 1) return;
      this.held.delete(id);
      this.logger.warn(`lost the lease of ${id}`);
      // the runner here must stop driving it
      this.events.emit('lease.lost', { conversationId: id });
    });
  }

  private key(conversationId: string): string {
    return this.cluster.key('lease', conversationId);
  }
}
