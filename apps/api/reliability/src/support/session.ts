import type { ElicitEvent } from '@sweatpants/domain';
import { Client } from 'pg';

import { NotReady } from '../scenario';
import { ApiUser, request } from './api-client';
import { apiUrl, type RunningCluster } from './cluster-handle';
import { acceptContentFor } from './elicit-answers';
import { LiveClient } from './live-client';

/** The admin account every cluster of the suite lists in ADMIN_EMAILS (each cluster has a fresh database). */
export const ADMIN_EMAIL = 'reliability-admin@example.com';

/**
 * Signs up a user (and the admin) on a cluster, turning a missing route into NotReady: the parts
 * the suite drives land one by one, and a scenario that needs one that is not there says so.
 */
export async function signUp(cluster: RunningCluster): Promise<{ user: ApiUser; admin: ApiUser }> {
  const base = apiUrl(cluster, 'api-1');
  const probe = await request(base, 'POST', '/api/auth/register', { body: {} });
  if (probe.status === 404) throw new NotReady('the auth routes (POST /api/auth/register) have not landed');
  const user = await ApiUser.register(base);
  await ApiUser.register(base, ADMIN_EMAIL);
  // ADMIN_EMAILS makes admins of proven addresses only: the suite's admin is proven as opening
  // its mailed link would prove it, and signs in again so its token says so.
  const db = new Client({ connectionString: cluster.databaseUrl });
  await db.connect();
  try {
    await db.query(`UPDATE users SET email_verified_at = now() WHERE email = $1`, [ADMIN_EMAIL]);
  } finally {
    await db.end();
  }
  const admin = await ApiUser.signIn(base, ADMIN_EMAIL);
  const conversations = await user.call('GET', '/api/conversations');
  if (conversations.status === 404) throw new NotReady('the conversation routes have not landed');
  const fsck = await admin.call('GET', '/api/admin/fsck/00000000-0000-0000-0000-000000000000');
  if (fsck.status === 403) throw new NotReady('ADMIN_EMAILS does not make the admin an admin yet');
  if (fsck.status !== 404 && fsck.status !== 200)
    throw new NotReady(`GET /api/admin/fsck answers ${fsck.status}`);
  return { user, admin };
}

/** Connects a tab's socket, turning a refused or missing gateway into NotReady. */
export async function connectTab(url: string, token: string): Promise<LiveClient> {
  try {
    return await LiveClient.connect(url, token);
  } catch (error) {
    throw new NotReady(`the Socket.IO gateway refused the connection: ${(error as Error).message}`);
  }
}

/** Joins and throws if the server refuses. */
export async function joinOrThrow(client: LiveClient, conversationId: string): Promise<void> {
  const ack = await client.join(conversationId);
  if (!ack.ok) throw new Error(`join refused: ${ack.error.code} ${ack.error.message}`);
}

/** One user turn: waits for the next open elicit, answers it over the socket; returns what happened. */
export async function answerNext(
  client: LiveClient,
  conversationId: string,
  answered: Set<string>,
  turn: number,
  limitMs = 60_000,
): Promise<{ elicit: ElicitEvent; nodeId: string | undefined; error: string | undefined }> {
  const elicit = await client.nextElicit(conversationId, answered, limitMs);
  answered.add(elicit.elicitId);
  const ack = await client.emit('elicit:response', {
    conversationId,
    elicitId: elicit.elicitId,
    action: 'accept',
    content: acceptContentFor(elicit, turn),
  });
  return ack.ok
    ? { elicit, nodeId: ack.node.id, error: undefined }
    : { elicit, nodeId: undefined, error: `${ack.error.code}: ${ack.error.message}` };
}

/** fsck through the admin route, as problems (empty when clean). */
export async function fsckProblems(admin: ApiUser, conversationId: string): Promise<string[]> {
  const report = await admin.fsck(conversationId);
  return report.ok
    ? []
    : report.problems.map((p) => `fsck ${conversationId}: ${p.problem ?? JSON.stringify(p)}`);
}

/** Runs `work` over `items` with at most `limit` at a time. */
export async function inBatches<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/** Waits until the agent is not working on `id` (it waits for the user, or is idle). */
export async function settled(user: ApiUser, id: string): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if ((await user.conversation(id)).status !== 'running') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`conversation ${id} still running after 60 s`);
}
