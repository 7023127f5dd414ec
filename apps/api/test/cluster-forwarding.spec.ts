import { randomBytes, randomUUID } from 'node:crypto';
import type { Json } from '@sweatpants/domain';
import { loadClusterConfig } from '../src/config/cluster-config';
import { ClusterRedis } from '../src/redis/cluster-redis';
import { CommandForwarder } from '../src/cluster/command-forwarder';
import { Metrics } from '../src/observability/metrics';
import { ConversationLease } from '../src/cluster/conversation-lease';
import { until } from './support/flows';
import { AppEvents } from '../src/events/app-events';
import { loadConfig } from '../src/config/app-config';
import { ApiError } from '../src/errors/api-error';

const REDIS_URL = 'redis://127.0.0.1:6379';

/** One api process's view of the cluster: its Redis, leases and forwarding. */
interface Peer {
  cluster: ClusterRedis;
  lease: ConversationLease;
  /** what this process tells itself (a lost lease) */
  events: AppEvents;
  forwarder: CommandForwarder;
  /** what ran here, by command */
  ran: string[];
}

async function peer(prefix: string, leaseMs: number): Promise<Peer> {
  const cluster = new ClusterRedis(
    loadConfig({ REDIS_URL }),
    loadClusterConfig({ REDIS_PREFIX: prefix, LEASE_MS: String(leaseMs) }),
  );
  const events = new AppEvents();
  const lease = new ConversationLease(cluster, new Metrics(), events);
  const forwarder = new CommandForwarder(cluster, lease);
  await forwarder.onModuleInit();
  const ran: string[] = [];
  forwarder.handle('echo', async (payload) => {
    ran.push(`echo ${JSON.stringify(payload)}`);
    return { at: cluster.processId, payload };
  });
  forwarder.handle('refuse', async () => {
    throw new ApiError('conflict', 'HEAD moved since you last saw it', { head: 'abc' });
  });
  return { cluster, lease, events, forwarder, ran };
}

/** A command as a service would run it: locally, or at the holder through the registered handler. */
function echo(p: Peer, conversationId: string, payload: Json): Promise<Json> {
  return p.forwarder.run(conversationId, 'echo', payload, async () => {
    p.ran.push(`local ${JSON.stringify(payload)}`);
    return { at: p.cluster.processId, payload };
  });
}

async function stop(p: Peer): Promise<void> {
  await p.lease.onApplicationShutdown();
  await p.forwarder.onApplicationShutdown();
  await p.cluster.onApplicationShutdown();
}

describe('one process drives a conversation; the others forward to it', () => {
  const prefix = `test-${randomBytes(4).toString('hex')}`;
  let a: Peer;
  let b: Peer;

  beforeEach(async () => {
    a = await peer(prefix, 600);
    b = await peer(prefix, 600);
  });

  afterEach(async () => {
    await stop(a);
    await stop(b);
  });

  it('runs a command where the lease is, and returns its answer to the caller elsewhere', async () => {
    const conversationId = randomUUID();
    expect(await echo(a, conversationId, 1)).toEqual({ at: a.cluster.processId, payload: 1 });
    expect(a.lease.holds(conversationId)).toBe(true);
    expect(await b.lease.acquire(conversationId)).toEqual({ kind: 'other', processId: a.cluster.processId });

    expect(await echo(b, conversationId, 2)).toEqual({ at: a.cluster.processId, payload: 2 });
    expect(a.ran).toEqual(['local 1', 'echo 2']);
    expect(b.ran).toEqual([]);
    expect(b.lease.holds(conversationId)).toBe(false);
  });

  it("gives the holder's error back as the caller's own", async () => {
    const conversationId = randomUUID();
    await a.lease.acquire(conversationId);
    const refused = b.forwarder.run(conversationId, 'refuse', null, async () => null);
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({
      body: {
        error: { code: 'conflict', message: 'HEAD moved since you last saw it', details: { head: 'abc' } },
      },
    });
  });

  it('keeps the lease while the holder lives, however long', async () => {
    const conversationId = randomUUID();
    await a.lease.acquire(conversationId);
    // Three lease periods: without renewal the lease would have gone twice over.
    for (let i = 0; i < 6; i++) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await b.lease.acquire(conversationId)).toEqual({
        kind: 'other',
        processId: a.cluster.processId,
      });
    }
  });

  it('keeps a lease whose key vanished (Redis restarted empty): the next renewal takes it again', async () => {
    const conversationId = randomUUID();
    const lost: string[] = [];
    a.events.on('lease.lost', ({ conversationId: id }) => void lost.push(id));
    await a.lease.acquire(conversationId);
    const key = a.cluster.key('lease', conversationId);
    await a.cluster.client?.del(key);
    // The next renewal, however late a loaded machine fires it, writes the key back.
    await until(
      async () => a.cluster.client?.get(key),
      (holder) => holder === a.cluster.processId,
    );
    expect(await b.lease.acquire(conversationId)).toEqual({ kind: 'other', processId: a.cluster.processId });
    expect(lost).toEqual([]);
    expect(a.lease.holds(conversationId)).toBe(true);
  });

  it('reports a lease another process took, and stops holding it', async () => {
    const conversationId = randomUUID();
    const lost: string[] = [];
    a.events.on('lease.lost', ({ conversationId: id }) => void lost.push(id));
    await a.lease.acquire(conversationId);
    await a.cluster.client?.set(a.cluster.key('lease', conversationId), b.cluster.processId, 'PX', 5000);
    // Heard at the next renewal, however late a loaded machine fires it.
    await until(
      async () => lost.length,
      (heard) => heard > 0,
    );
    expect(lost).toEqual([conversationId]);
    expect(a.lease.holds(conversationId)).toBe(false);
  });

  it('takes over once a dead holder’s lease expires, and runs the command there', async () => {
    const conversationId = randomUUID();
    await echo(a, conversationId, 'before');
    // As with kill -9: its connections drop, its renewals stop, and nothing is handed back.
    a.cluster.client?.disconnect();
    for (const connection of (a.cluster as unknown as { extra: { disconnect(): void }[] }).extra)
      connection.disconnect();

    expect(await echo(b, conversationId, 'after')).toEqual({ at: b.cluster.processId, payload: 'after' });
    expect(b.ran).toEqual(['local "after"']);
    expect(b.lease.holds(conversationId)).toBe(true);
  });

  it('hands its leases back when it shuts down, so the next process need not wait', async () => {
    const conversationId = randomUUID();
    await a.lease.acquire(conversationId);
    await a.lease.onApplicationShutdown();
    expect(await b.lease.acquire(conversationId)).toEqual({ kind: 'self' });
  });
});
