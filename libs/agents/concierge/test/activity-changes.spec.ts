import { demoActivities } from '../src/demo-data';
import { InMemoryActivityStore } from '../src/in-memory-activity-store';

/**
 * A conversation's changes to activities follow its HEAD: the store is told which of them hold
 * there, undoes the rest and redoes those. Driven through the in-memory store, whose plan is the
 * Postgres adapter's (`followHeadPlan`).
 */
describe('changes to activities follow the conversation', () => {
  const ME = 'conversation-1';
  const OTHER = 'conversation-2';
  const MAIL = 'mail-101';
  let store: InMemoryActivityStore;
  let original: { status: string; tier: number };

  const now = () => {
    const a = store.get(MAIL);
    return { status: a?.status, tier: a?.classification.autonomyTier };
  };
  const archive = (by: { conversationId: string; changeId: string }) =>
    store.updateActivities([MAIL], { status: 'archived', classification: { autonomyTier: 1 } }, by);
  const process = (by: { conversationId: string; changeId: string }) =>
    store.updateActivities([MAIL], { status: 'processed', classification: { autonomyTier: 2 } }, by);

  beforeEach(() => {
    store = new InMemoryActivityStore(demoActivities(new Date('2026-11-01T00:00:00Z')));
    const a = store.get(MAIL);
    original = { status: a?.status ?? '', tier: a?.classification.autonomyTier ?? 0 };
  });

  it('leaves a change that holds at HEAD as it is', async () => {
    await archive({ conversationId: ME, changeId: 'pick-1' });
    expect(await store.followHead(ME, ['pick-1'])).toEqual({ ok: true, value: { undone: 0, redone: 0 } });
    expect(now()).toEqual({ status: 'archived', tier: 1 });
  });

  it('undoes a change HEAD left (a rewind), and redoes it when HEAD comes back (a recover)', async () => {
    await archive({ conversationId: ME, changeId: 'pick-1' });
    expect(await store.followHead(ME, [])).toEqual({ ok: true, value: { undone: 1, redone: 0 } });
    expect(now()).toEqual(original);
    expect(await store.followHead(ME, ['pick-1'])).toEqual({ ok: true, value: { undone: 0, redone: 1 } });
    expect(now()).toEqual({ status: 'archived', tier: 1 });
  });

  it('undoes two changes of the branch left, newest first, back to before the first', async () => {
    await archive({ conversationId: ME, changeId: 'pick-1' });
    await process({ conversationId: ME, changeId: 'pick-2' });
    await store.followHead(ME, ['pick-1']);
    expect(now()).toEqual({ status: 'archived', tier: 1 });
    await store.followHead(ME, []);
    expect(now()).toEqual(original);
    await store.followHead(ME, ['pick-1', 'pick-2']);
    expect(now()).toEqual({ status: 'processed', tier: 2 });
  });

  it("moves between two branches' picks: the one left undone, the one returned to redone", async () => {
    await archive({ conversationId: ME, changeId: 'branch-a' });
    await store.followHead(ME, []); // rewound to the card
    await process({ conversationId: ME, changeId: 'branch-b' });
    await store.followHead(ME, ['branch-a']); // back to the first branch
    expect(now()).toEqual({ status: 'archived', tier: 1 });
    await store.followHead(ME, ['branch-b']);
    expect(now()).toEqual({ status: 'processed', tier: 2 });
  });

  it('never overwrites what another conversation changed since', async () => {
    await archive({ conversationId: ME, changeId: 'pick-1' });
    await process({ conversationId: OTHER, changeId: 'their-pick' });
    expect(await store.followHead(ME, [])).toEqual({ ok: true, value: { undone: 0, redone: 0 } });
    expect(now()).toEqual({ status: 'processed', tier: 2 });
  });

  it('never overwrites a change made outside any conversation since', async () => {
    await archive({ conversationId: ME, changeId: 'pick-1' });
    await store.updateActivities([MAIL], { status: 'surfaced' });
    await store.followHead(ME, []);
    expect(now()).toEqual({ status: 'surfaced', tier: 1 });
  });

  it('logs a call made again (its turn replayed after a crash) once, keeping what it found first', async () => {
    await archive({ conversationId: ME, changeId: 'pick-1' });
    await archive({ conversationId: ME, changeId: 'pick-1' });
    await store.followHead(ME, []);
    expect(now()).toEqual(original);
  });

  it('keeps a replayed call in force even if a HEAD without it undid it meanwhile', async () => {
    // The runner reopened before the replay recorded the call's event: the change did not hold yet.
    await archive({ conversationId: ME, changeId: 'pick-1' });
    await store.followHead(ME, []);
    await archive({ conversationId: ME, changeId: 'pick-1' });
    await store.followHead(ME, ['pick-1']);
    expect(now()).toEqual({ status: 'archived', tier: 1 });
    await store.followHead(ME, []);
    expect(now()).toEqual(original);
  });

  it('leaves the other activities alone', async () => {
    const before = store.get('mail-104');
    await archive({ conversationId: ME, changeId: 'pick-1' });
    await store.followHead(ME, []);
    expect(store.get('mail-104')).toEqual(before);
  });
});
