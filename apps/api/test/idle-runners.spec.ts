import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { ElicitRequest } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { ConversationActors } from '../src/conversations/conversation-actors';
import { answer, ask, conversation, createConversation, settled } from './support/flows';
import { register, startApi, type TestApi } from './support/test-api';

/** Conversations left waiting on a question, as many people walking off mid-session would. */
const WAITING = 40;
/** What "a handful" of open runners means once everyone has walked off. */
const HANDFUL = 3;

describe('runners of conversations waiting on a question', () => {
  let db: TestDatabase;
  let api: TestApi;
  const saved = { ...process.env };

  beforeAll(async () => {
    db = await createTestDatabase('api_idle_runners');
    // A process setting, as in a deployment: several seconds, longer than opening all 40 runners
    // takes on a loaded machine (they must all be open at once before any closes; CI's two cores
    // once took longer than 4 s).
    process.env['RUNNER_IDLE_MS'] = '8000';
    api = await startApi({ DATABASE_URL: db.url });
  }, 30_000);
  afterAll(async () => {
    await api?.close();
    process.env = saved;
    await db?.drop();
  });

  it('close once idle, and each question is still there, under the same id, when its user returns', async () => {
    const runners = api.app.get(ConversationActors);
    const { token } = await register(api, 'walker');
    const asked: { id: string; question: ElicitRequest }[] = [];
    for (let i = 0; i < WAITING; i++) {
      const c = await createConversation(api, token);
      asked.push({ id: c.id, question: await ask(api, token, c.id) });
    }
    // Everyone looks at their conversation at once: every runner is open, rebuilt from the tree.
    const looked = await Promise.all(asked.map(({ id }) => conversation(api, token, id)));
    const busy = { open: runners.openCount, heap: heapAfterGc() };
    expect(looked.map((c) => c.pendingElicit?.elicitId)).toEqual(asked.map((a) => a.question.elicitId));

    // Then nobody touches anything: the runners close by themselves.
    while (runners.openCount > HANDFUL) await new Promise((resolve) => setTimeout(resolve, 50));
    const idle = { open: runners.openCount, heap: heapAfterGc() };
    console.info(
      `idle runners: ${busy.open} open with ${WAITING} questions pending (heap ${mb(busy.heap)}), ` +
        `${idle.open} once idle (heap ${mb(idle.heap)}, ${kb((busy.heap - idle.heap) / WAITING)} per runner)`,
    );
    expect(busy.open).toBe(WAITING);
    expect(idle.open).toBeLessThanOrEqual(HANDFUL);

    for (const { id, question } of asked) {
      // The same question waits, as it was asked: the user's card is still good.
      const back = await conversation(api, token, id);

      expect(back).toMatchObject({ status: 'waiting', pendingElicit: { elicitId: question.elicitId } });
      const answered = await answer(api, token, id, question);

      expect(answered.status).toBe(200);
      expect(answered.body.node).toMatchObject({
        kind: 'response',
        payload: { elicitId: question.elicitId },
      });
      const next = await settled(api, token, id);
      expect(next.pendingElicit?.elicitId).not.toBe(question.elicitId);
    }
  }, 120_000);
});

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} kB`;

/** The heap in use once a full collection ran: the figure that says what the runners held. */
function heapAfterGc(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}
