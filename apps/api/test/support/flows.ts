import type { Conversation, PathResponse, TreeNode } from '@sweatpants/domain';
import { call, type TestApi } from './test-api';

/** Polls `read` until `done` holds: a wait for the agent, not a measure of its speed. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function createConversation(
  api: TestApi,
  token: string,
  body: { agent: 'tidying' | 'concierge'; title?: string } = { agent: 'tidying' },
): Promise<Conversation> {
  const res = await call<Conversation>(api, 'POST', '/api/conversations', { token, body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function conversation(api: TestApi, token: string, id: string): Promise<Conversation> {
  return (await call<Conversation>(api, 'GET', `/api/conversations/${id}`, { token })).body;
}

/** The conversation once its agent has stopped and waits on an elicit of `type`. */
export function waitingOn(api: TestApi, token: string, id: string, type = 'chat'): Promise<Conversation> {
  return until(
    () => conversation(api, token, id),
    (c) => c.status === 'waiting' && c.pendingElicit?.type === type,
  );
}

export async function path(api: TestApi, token: string, id: string, at = 'HEAD'): Promise<TreeNode[]> {
  const res = await call<PathResponse>(
    api,
    'GET',
    `/api/conversations/${id}/path?at=${encodeURIComponent(at)}`,
    {
      token,
    },
  );
  if (res.status !== 200) throw new Error(`path failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.nodes;
}

/** Sends a message and waits for the agent to answer it and stop on an elicit of `type`. */
export async function say(
  api: TestApi,
  token: string,
  id: string,
  text: string,
  type = 'chat',
): Promise<Conversation> {
  const res = await call(api, 'POST', `/api/conversations/${id}/messages`, { token, body: { text } });
  if (res.status !== 201) throw new Error(`message failed: ${res.status} ${JSON.stringify(res.body)}`);
  return waitingOn(api, token, id, type);
}

export const kinds = (nodes: readonly TreeNode[]): string[] => nodes.map((n) => n.kind);
