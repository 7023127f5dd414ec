import type { ReflogEntry, ReflogPage } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { answerAll, ask, createConversation, turn } from './support/flows';
import { call, register, startApi, type TestApi } from './support/test-api';

/**
 * The reflog says who moved HEAD, and through what when it was not the product's own clients: an
 * owner reading the history, or an admin auditing it, can tell a script's or an MCP client's
 * moves from the person's own taps.
 */
describe('the reflog says how its actor acted', () => {
  let db: TestDatabase;
  let api: TestApi;
  let session: string;
  let laptop: string;

  beforeAll(async () => {
    db = await createTestDatabase('api_reflog_notes');
    api = await startApi({ DATABASE_URL: db.url });
    ({ token: session } = await register(api, 'noted'));
    const made = await call<{ token: string }>(api, 'POST', '/api/auth/tokens', {
      token: session,
      body: { name: 'laptop' },
    });
    laptop = made.body.token;
  }, 30_000);
  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  const reflog = async (id: string): Promise<ReflogEntry[]> =>
    (await call<ReflogPage>(api, 'GET', `/api/conversations/${id}/reflog?limit=500`, { token: session })).body
      .entries;

  it("notes a personal access token's writes and moves with the token's name, and the person's own with nothing", async () => {
    const c = await createConversation(api, session);
    const question = await ask(api, session, c.id);
    const byHand = await reflog(c.id);

    const answered = await call(
      api,
      'POST',
      `/api/conversations/${c.id}/elicits/${question.elicitId}/response`,
      {
        token: laptop,
        body: { action: 'decline' },
      },
    );
    expect(answered.status).toBe(200);
    await answerAll(api, laptop, c.id);
    await turn(api, laptop, c.id, 'the lamp stays');
    const rewound = await call(api, 'POST', `/api/conversations/${c.id}/rewind`, {
      token: laptop,
      body: { to: 'HEAD~1' },
    });
    expect(rewound.status).toBe(200);

    const entries = await reflog(c.id);
    const added = entries.slice(0, entries.length - byHand.length);
    const noted = added.filter((e) => e.message.endsWith("(with token 'laptop')"));
    // The person's message, their answer and their rewind, each with the token that made it...
    expect(noted.map((e) => e.action)).toEqual(expect.arrayContaining(['rewind', 'append']));
    expect(noted.some((e) => e.message.startsWith('append: user "the lamp stays"'))).toBe(true);
    expect(noted.some((e) => e.message.startsWith('append: response'))).toBe(true);
    expect(noted.every((e) => !e.actorId.startsWith('agent:'))).toBe(true);
    // ...the agent's own writes with none, and nothing done by hand carries a note.
    expect(
      added.filter((e) => e.actorId.startsWith('agent:')).every((e) => !e.message.includes('token')),
    ).toBe(true);
    expect(byHand.every((e) => !e.message.includes('token'))).toBe(true);
  });
});
