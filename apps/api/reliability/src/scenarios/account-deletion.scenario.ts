import { Client } from 'pg';
import { Verdict, type Scenario } from '../scenario';
import { ApiUser } from '../support/api-client';
import { apiUrl } from '../support/cluster-handle';
import {
  answerNext,
  connectTab,
  fsckProblems,
  inBatches,
  joinOrThrow,
  settled,
  signUp,
} from '../support/session';

/** Sessions of other people that go on while the account is deleted. */
const LIVE = Number(process.env['RELIABILITY_DELETION_LIVE'] ?? 20);
/** Answers each of them gives, the deletion landing after their first. */
const TURNS = 6;
/** A 1×1 PNG: the account's conversations hold a photo, so its blob goes with it. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** What the database still holds of an account, counted by owner. */
async function rowsOf(databaseUrl: string, userId: string): Promise<Record<string, number>> {
  const sql = new Client({ connectionString: databaseUrl });
  await sql.connect();
  try {
    const count = async (query: string) =>
      Number((await sql.query<{ n: string }>(query, [userId])).rows[0]?.n ?? 0);
    const mine = `SELECT id FROM conversations WHERE owner_id = $1`;
    return {
      users: await count(`SELECT count(*) AS n FROM users WHERE id::text = $1`),
      conversations: await count(`SELECT count(*) AS n FROM conversations WHERE owner_id = $1`),
      nodes: await count(`SELECT count(*) AS n FROM nodes WHERE conversation_id IN (${mine})`),
      reflog: await count(`SELECT count(*) AS n FROM reflog WHERE conversation_id IN (${mine})`),
      audit: await count(`SELECT count(*) AS n FROM account_deletions WHERE user_id::text = $1`),
    };
  } finally {
    await sql.end();
  }
}

/**
 * 9. An account deleted during other people's live sessions: LIVE people each answer TURNS
 * questions over a socket, spread over both apis, while someone with conversations of their own
 * (a photo, a rewind, one on each api) deletes their account through api-1. Their rows are gone
 * with one audit row and their token is refused; every other session answers every question with
 * no error, and fsck is clean on every conversation left.
 */
export const accountDeletionScenario: Scenario = {
  id: 9,
  name: `account deletion while ${LIVE} other people talk, on two apis`,
  async run(ctx) {
    const cluster = await ctx.startCluster({ apis: 2, workers: 1 });
    const { admin } = await signUp(cluster);
    const verdict = new Verdict();
    const apis = [apiUrl(cluster, 'api-1'), apiUrl(cluster, 'api-2')];
    const [first, second] = apis as [string, string];
    const errors: string[] = [];

    // The one who leaves: a conversation on each api, with a photo and a discarded branch.
    const leaving = await ApiUser.register(first);
    for (const url of apis) {
      const owner = leaving.on(url);
      const { id } = await owner.createConversation('tidying');
      const sent = await owner.call('POST', `/api/conversations/${id}/messages`, {
        text: 'my desk',
        photos: [{ mediaType: 'image/png', data: PNG }],
      });
      if (sent.status !== 201) errors.push(`photo message: ${sent.status}`);
      await settled(owner, id);
      const more = await owner.sendMessage(id, 'the shelf');
      if (more.status !== 201) errors.push(`message: ${more.status}`);
      await settled(owner, id);
      const back = await owner.rewind(id, 'HEAD~1');
      if (back.status !== 200) errors.push(`rewind: ${back.status}`);
    }
    const before = await rowsOf(cluster.databaseUrl, leaving.userId);
    ctx.log(`leaving: ${before.conversations} conversations, ${before.nodes} nodes`);

    // Everyone else, talking.
    const people = await inBatches(Array.from({ length: LIVE }), 4, () => ApiUser.register(first));
    let firstAnswers = 0;
    let allStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (allStarted = resolve));
    const sessions = inBatches(people, LIVE, async (person, i) => {
      const url = i % 2 === 0 ? first : second;
      const { id } = await person.on(url).createConversation('tidying');
      const tab = await connectTab(url, person.token);
      try {
        await joinOrThrow(tab, id);
        const answered = new Set<string>();
        let acked = 0;
        for (let turn = 0; turn < TURNS; turn++) {
          const result = await answerNext(tab, id, answered, turn);
          if (result.error) errors.push(`answer in ${id}: ${result.error}`);
          else acked++;
          if (turn === 0 && ++firstAnswers === LIVE) allStarted();
        }
        return { id, acked };
      } finally {
        tab.close();
      }
    });

    await started;
    const deletedAt = Date.now();
    const deleted = await leaving.on(first).call('DELETE', '/api/account', {
      password: 'reliability-password',
    });
    const deletionMs = Date.now() - deletedAt;
    const talked = await sessions;

    const after = await rowsOf(cluster.databaseUrl, leaving.userId);
    const me = await leaving.on(second).call('GET', '/api/auth/me');
    const problems: string[] = [];
    await inBatches(talked, 10, async ({ id }) => problems.push(...(await fsckProblems(admin, id))));
    const answers = talked.reduce((n, t) => n + t.acked, 0);

    verdict.figure('deletion (ms)', deletionMs);
    verdict.figure('nodes deleted', before.nodes ?? 0);
    verdict.figure('answers by others', `${answers} of ${LIVE * TURNS}`);
    verdict.figure('fsck problems', problems.length);
    verdict.figure('errors', errors.length);
    verdict.check(deleted.status === 204, `DELETE /api/account answered ${deleted.status}`);
    verdict.check(
      after.users === 0 && after.conversations === 0 && after.nodes === 0 && after.reflog === 0,
      `rows left of the deleted account: ${JSON.stringify(after)}`,
    );
    verdict.check(after.audit === 1, `${after.audit} audit rows for the deletion`);
    verdict.check(me.status === 401, `the deleted account's token answered ${me.status} on api-2`);
    verdict.check(answers === LIVE * TURNS, `others answered ${answers} of ${LIVE * TURNS} questions`);
    verdict.check(errors.length === 0, `errors: ${errors.slice(0, 5).join('; ')}`);
    verdict.check(problems.length === 0, problems.slice(0, 5).join('; '));
    return verdict.outcome();
  },
};
