import { randomUUID } from 'node:crypto';
import type { SpendLimit } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { PgSqlClient, type SqlExecutor } from '@sweatpants/tree-store';
import { FREE_CHECK_MS, SpendLedger } from './spend-ledger';

const NO_LIMIT: SpendLimit = { dailyUsd: null, monthlyUsd: null };
const NOTHING: SpendLimit = { dailyUsd: 0, monthlyUsd: null };
const NOW = new Date('2026-11-27T12:00:00.000Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);

let db: TestDatabase;
let sql: PgSqlClient;
/** Statements the ledger under test sent. */
let statements: string[];
/** The ledger under test, reading through a client that notes each statement. */
let here: SpendLedger;
/** The same table as another api process sees it. */
let there: SpendLedger;
/** who changes budgets */
let admin: string;

beforeAll(async () => {
  db = await createTestDatabase('spend_ledger');
  sql = PgSqlClient.connect(db.url, { role: 'sweatpants_app', max: 4 });
  const noted: SqlExecutor = {
    query: (text, params) => {
      statements.push(text);
      return sql.query(text, params);
    },
  };
  here = new SpendLedger({
    ...noted,
    transaction: (work, options) => sql.transaction(work, options),
    close: () => sql.close(),
  });
  there = new SpendLedger(sql);
  admin = await aPerson();
});
beforeEach(() => {
  statements = [];
});
afterAll(async () => {
  await sql.close();
  await db.drop();
});

async function aPerson(): Promise<string> {
  const id = randomUUID();
  await sql.query(`INSERT INTO users (id, email, display_name, password_hash) VALUES ($1, $2, 'P', NULL)`, [
    id,
    `${id}@example.com`,
  ]);
  return id;
}

const freeCall = (userId: string) => ({ userId, conversationId: randomUUID(), model: 'offline', free: true });

describe("a free call's budget check", () => {
  it("reads the person's spend once for a conversation's turns in a row, and answers the same", async () => {
    const person = await aPerson();
    const answers = [];
    for (let turn = 0; turn < 5; turn++)
      answers.push(await here.reserve(freeCall(person), NO_LIMIT, later(turn * 100)));

    expect(answers.every((a) => a.kind === 'allowed')).toBe(true);
    expect(statements).toHaveLength(1);
  });

  it('hears at once of a budget changed on this process, set or cleared', async () => {
    const person = await aPerson();
    expect((await here.reserve(freeCall(person), NO_LIMIT, NOW)).kind).toBe('allowed');

    await here.setLimit(person, NOTHING, admin);
    expect(await here.reserve(freeCall(person), NO_LIMIT, later(1))).toMatchObject({
      kind: 'refused',
      period: 'daily',
    });

    await here.clearLimit(person);
    expect((await here.reserve(freeCall(person), NO_LIMIT, later(2))).kind).toBe('allowed');
  });

  it('keeps no verdict read while a budget was being changed here', async () => {
    const person = await aPerson();
    // The free call's read and the change overlap: the read may have seen the old budget.
    const [overlapping] = await Promise.all([
      here.reserve(freeCall(person), NO_LIMIT, NOW),
      here.setLimit(person, NOTHING, admin),
    ]);
    expect(['allowed', 'refused']).toContain(overlapping.kind);

    expect(await here.reserve(freeCall(person), NO_LIMIT, later(1))).toMatchObject({ kind: 'refused' });
  });

  it('hears of a budget changed on another process within FREE_CHECK_MS', async () => {
    const person = await aPerson();
    expect((await here.reserve(freeCall(person), NO_LIMIT, NOW)).kind).toBe('allowed');

    await there.setLimit(person, NOTHING, admin);
    // Within the while the verdict stands: a free call spends nothing, so nothing is overspent.
    expect((await here.reserve(freeCall(person), NO_LIMIT, later(FREE_CHECK_MS - 1))).kind).toBe('allowed');
    expect(await here.reserve(freeCall(person), NO_LIMIT, later(FREE_CHECK_MS))).toMatchObject({
      kind: 'refused',
      period: 'daily',
    });
  });

  it('reads again after a paid call of the same person was reserved', async () => {
    const person = await aPerson();
    await here.reserve(freeCall(person), NO_LIMIT, NOW);
    const paid = await here.reserve(
      { ...freeCall(person), model: 'claude-sonnet-4-5', free: false },
      NO_LIMIT,
      NOW,
    );
    expect(paid).toMatchObject({ kind: 'allowed' });
    statements = [];

    await here.reserve(freeCall(person), NO_LIMIT, later(1));
    expect(statements).toHaveLength(1);
  });

  it("reads again when a new day begins, though the last day's verdict is moments old", async () => {
    const person = await aPerson();
    await here.reserve(freeCall(person), NO_LIMIT, new Date('2026-11-27T23:59:59.900Z'));
    await here.reserve(freeCall(person), NO_LIMIT, new Date('2026-11-28T00:00:00.100Z'));

    expect(statements).toHaveLength(2);
  });

  it('keeps one verdict per person: one refused does not refuse another', async () => {
    const [refused, allowed] = [await aPerson(), await aPerson()];
    await here.setLimit(refused, NOTHING, admin);

    expect((await here.reserve(freeCall(refused), NO_LIMIT, NOW)).kind).toBe('refused');
    expect((await here.reserve(freeCall(allowed), NO_LIMIT, NOW)).kind).toBe('allowed');
    expect((await here.reserve(freeCall(refused), NO_LIMIT, later(10))).kind).toBe('refused');
  });
});
