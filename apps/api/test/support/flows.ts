import type {
  Conversation,
  CreateConversationRequest,
  ElicitRequest,
  InlinePhoto,
  NodeAndHead,
  TreeNode,
} from '@sweatpants/domain';
import { call, client, type ApiAddress } from './test-api';

/**
 * Conversation flows against the real agents on the offline model. The tidying agent asks about
 * a space it is shown (a `choose`, then a `propose-disposition`), so OPENING with PHOTO is the
 * message that gets a tool's elicit pending.
 */
export const OPENING = 'My desk is covered in mugs, papers and a lamp';
export const PHOTO: InlinePhoto = {
  mediaType: 'image/png',
  data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
};

/** Polls `read` until `done` holds: a wait for the agent, not a measure of its speed. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  // Gives up under jest's 30 s with the last value read, so a hang says what it waited for.
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      const text = JSON.stringify(value) ?? String(value);
      throw new Error(`still not done after 20 s; last read: ${text.slice(0, 2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function createConversation(
  api: ApiAddress,
  token: string,
  body: CreateConversationRequest = { agent: 'tidying' },
): Promise<Conversation> {
  return client(api, token).createConversation({ body });
}

export function conversation(api: ApiAddress, token: string, id: string): Promise<Conversation> {
  return client(api, token).conversation({ params: { id } });
}

/** The conversation once its agent has stopped to wait on an elicit (the chat prompt or a tool's). */
export function settled(api: ApiAddress, token: string, id: string): Promise<Conversation> {
  return until(
    () => conversation(api, token, id),
    (c) => c.status === 'waiting' && c.pendingElicit !== null,
  );
}

export async function path(api: ApiAddress, token: string, id: string, at = 'HEAD'): Promise<TreeNode[]> {
  return (await client(api, token).path({ params: { id }, query: { at } })).nodes;
}

/** Sends a message and waits for the agent to stop on an elicit. */
export async function say(
  api: ApiAddress,
  token: string,
  id: string,
  text: string,
  photos?: InlinePhoto[],
): Promise<Conversation> {
  await client(api, token).sendMessage({ params: { id }, body: photos ? { text, photos } : { text } });
  return settled(api, token, id);
}

/** A valid answer to any elicit: the first choice, yes, or a decline (the one-tap path). */
export function firstAnswer(q: ElicitRequest): { action: string; content?: unknown } {
  switch (q.type) {
    case 'propose-disposition': {
      const p = q.payload as { choices: { disposition: unknown }[] };
      return { action: 'accept', content: { disposition: p.choices[0]?.disposition, wasCorrection: false } };
    }
    case 'choose':
      return {
        action: 'accept',
        content: { choiceId: (q.payload as { options: { id: string }[] }).options[0]?.id },
      };
    case 'confirm':
      return { action: 'accept', content: { value: true } };
    default:
      return { action: 'decline' };
  }
}

/**
 * Answers with any body, as sent (specs send answers that do not fit on purpose), and resolves
 * with the status and body rather than throwing.
 */
export async function answer(
  api: ApiAddress,
  token: string,
  id: string,
  q: ElicitRequest,
  body: unknown = firstAnswer(q),
) {
  return call<NodeAndHead>(
    api,
    'POST',
    `/api/conversations/${id}/elicits/${encodeURIComponent(q.elicitId)}/response`,
    {
      token,
      body,
    },
  );
}

/** Answers every tool's question with its first answer until the agent waits for a message. */
export async function answerAll(api: ApiAddress, token: string, id: string): Promise<Conversation> {
  for (let c = await settled(api, token, id); ; c = await settled(api, token, id)) {
    const q = c.pendingElicit!;
    if (q.type === 'chat') return c;
    const res = await answer(api, token, id, q);
    if (res.status !== 200) throw new Error(`answer failed: ${res.status} ${JSON.stringify(res.body)}`);
    await until(
      () => conversation(api, token, id),
      (next) => next.pendingElicit?.elicitId !== q.elicitId,
    );
  }
}

/** One whole exchange: the message, every question answered, the agent waiting for the next message. */
export async function turn(api: ApiAddress, token: string, id: string, text: string, photos?: InlinePhoto[]) {
  await say(api, token, id, text, photos);
  return answerAll(api, token, id);
}

/** The message that gets a tool's question pending; resolves with that question. */
export async function ask(api: ApiAddress, token: string, id: string): Promise<ElicitRequest> {
  const c = await say(api, token, id, OPENING, [PHOTO]);
  if (!c.pendingElicit || c.pendingElicit.type === 'chat') throw new Error('the agent asked nothing');
  return c.pendingElicit;
}

export const kinds = (nodes: readonly TreeNode[]): string[] => nodes.map((n) => n.kind);
