import { createHash } from 'node:crypto';
import {
  ElicitTypes,
  foldPath,
  TidyingStateSchema,
  type ElicitPayload,
  type ElicitRequest,
  type Json,
  type Photo,
  type TidyingState,
  type TreeNode,
} from '@sweatpants/domain';
import {
  type Model,
  type PhotoBytes,
  Runner,
  InMemoryConversationPort,
} from '@sweatpants/agent-runtime/host';
import { ClaudeModel, claudeConfig } from '@sweatpants/agent-claude';
import { tidyingAgent } from '../src';

/** A tiny PNG's bytes, base64, as a phone would send them. */
export const PHOTO_DATA =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** That PNG as the api stores it and a node holds it: a blob named by its sha-256. */
export const PHOTO: Photo = {
  sha256: createHash('sha256').update(Buffer.from(PHOTO_DATA, 'base64')).digest('hex'),
  mediaType: 'image/png',
  bytes: Buffer.from(PHOTO_DATA, 'base64').length,
  width: 1,
  height: 1,
};

/** What the api's blob store gives a model that reads a photo: here, just the one above. */
export const photoBytes: PhotoBytes = async (sha256) =>
  sha256 === PHOTO.sha256 ? Buffer.from(PHOTO_DATA, 'base64') : null;

/** Claude through the real SDK against the fake server at `url`, retrying at once (specs count tries, never time). */
export const claudeAt = (url: string): ClaudeModel =>
  new ClaudeModel(
    claudeConfig({
      apiKey: 'test-key',
      baseURL: url,
      model: 'claude-sonnet-4-6',
      retry: { baseDelayMs: 1, maxDelayMs: 5 },
    }),
    { photoBytes },
  );

export interface Session {
  port: InMemoryConversationPort;
  runner: Runner;
  path(): Promise<TreeNode[]>;
  state(): TidyingState;
  /** sends a message and answers each question with `answer` until the turn ends */
  say(text: string, answer?: (q: ElicitRequest) => Answer, photos?: (typeof PHOTO)[]): Promise<void>;
}

/** An answer the runner takes (PROTOCOL.md's actions), or `wait` to leave the question open. */
export type Answer =
  | { action: 'accept'; content: { [key: string]: Json } }
  | { action: 'decline' | 'cancel' }
  /** words typed while the question waits, instead of its buttons */
  | { action: 'other'; content: { text: string } }
  | 'wait';

export async function openSession(model: Model, questionTimeoutMs?: number): Promise<Session> {
  const port = new InMemoryConversationPort();
  port.create('t1');
  const runner = await Runner.open({
    conversationId: 't1',
    agent: tidyingAgent,
    port,
    model,
    logs: { write: () => undefined },
    ...(questionTimeoutMs ? { questionTimeoutMs } : {}),
  });
  const path = async () => {
    const read = await port.path('t1');
    if (!read.ok) throw new Error(read.error.message);
    return read.value;
  };
  return {
    port,
    runner,
    path,
    state: () => TidyingStateSchema.parse(runner.state()),
    async say(text, answer = () => 'wait', photos) {
      const sent = await runner.send({ text, authorId: 'u1', ...(photos ? { photos } : {}) });
      if (!sent.ok) throw new Error(sent.error.message);
      const answered = new Set<string>();
      while (runner.pending()[0]?.type !== 'chat') {
        for (const q of runner.elicits.list()) {
          if (answered.has(q.elicitId)) continue;
          const a = answer(q);
          if (a === 'wait') continue;
          answered.add(q.elicitId);
          const done = runner.answer({ elicitId: q.elicitId, ...a });
          if (!done.ok) throw new Error(done.error.message);
        }
        await new Promise((r) => setTimeout(r, 2));
      }
      await runner.whenIdle();
    },
  };
}

/** The tidying state folded from a path, as GET state would serve it. */
export const stateOf = (path: readonly TreeNode[]): TidyingState =>
  TidyingStateSchema.parse(foldPath(tidyingAgent.state, path));

/** A disposition card's payload, checked against libs/domain's schema (throws if it does not fit). */
export const cardOf = (q: ElicitRequest): ElicitPayload<'propose-disposition'> =>
  ElicitTypes['propose-disposition'].payload.parse(q.payload);

/** The `type`s of the event nodes on a path, in order. */
export const eventsOf = (path: readonly TreeNode[]) =>
  path.filter((n) => n.kind === 'event').map((n) => String(n.payload['type']));

/** Taps the first choice of whatever is asked (the one-tap path). */
export const tapFirst = (q: ElicitRequest): Answer => {
  switch (q.type) {
    case 'propose-disposition': {
      const [first] = cardOf(q).choices;
      return first
        ? { action: 'accept', content: { disposition: first.disposition, wasCorrection: false } }
        : { action: 'decline' };
    }
    case 'choose': {
      const [first] = ElicitTypes.choose.payload.parse(q.payload).options;
      return first ? { action: 'accept', content: { choiceId: first.id } } : { action: 'decline' };
    }
    case 'confirm':
      return { action: 'accept', content: { value: true } };
    case 'group':
      return { action: 'accept', content: { answers: { done: { value: true } } } };
    default:
      return { action: 'decline' };
  }
};
