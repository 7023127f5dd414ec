import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import type { ElicitRequest, TreeNode } from '@sweatpants/domain';
import { DONATIONS_OFFLINE_RULES } from '../src';
import {
  BERLIN,
  coachGuessing,
  happyAnswers,
  openSession,
  type Answer,
  type Session,
} from './donations-session';

/**
 * Someone who would rather a thing were collected, where no service that collects reaches: the
 * helper tries collection on a branch of its directory subagent, goes back, and tries places to
 * take it instead (seed 004's fork/forward/back), on the offline model.
 */

/** 13 km north of the demo reuse centre: within reach of a drop-off, beyond every collection round. */
const NORTH_OF_CAMDEN = { lat: 51.66, lng: -0.1224 };

const where = (point: { lat: number; lng: number }) => (q: ElicitRequest) =>
  q.type === 'location' ? ({ action: 'accept', content: point } satisfies Answer) : happyAnswers(q);

async function chairCollectedFrom(point: { lat: number; lng: number }): Promise<Session> {
  const session = await openSession(
    new OfflineModel(DONATIONS_OFFLINE_RULES),
    coachGuessing(() => 'donate'),
  );
  await session.say('a wooden chair, could someone pick it up?', where(point));
  await session.runner.close();
  return session;
}

const typeOf = (n: TreeNode) => (n.kind === 'event' ? `event:${String(n.payload['type'])}` : n.kind);

describe('the donation helper, when no service collects where the person is', () => {
  it('goes back from collection and names a place to take it instead, saying why', async () => {
    const session = await chairCollectedFrom(NORTH_OF_CAMDEN);
    // (its last words acknowledge the address it offered to copy)
    expect((await session.replies()).at(-2)).toMatch(
      /^No service I know collects the wooden chair where you are, so here is where you could take it instead\. Take it to Camden Reuse Centre, 140 York Way, N1: /,
    );

    // The collection attempt is a branch of the directory subagent, off the path; the drop-off
    // attempt that worked is on it, after the return.
    const path = await session.path();
    const all = [...session.port.inspect('d1').nodes.values()];
    const abandoned = all.filter((n) => !path.includes(n));
    expect(abandoned.map(typeOf)).toEqual(['event:fork', 'tool_call', 'notify', 'tool_result']);
    expect(abandoned.every((n) => n.authorId === 'agent:directory')).toBe(true);
    expect(abandoned[0]?.payload).toEqual({
      type: 'fork',
      agent: 'directory',
      label: 'services that collect',
    });
    const returned = path.find((n) => n.kind === 'event' && n.payload['type'] === 'fork-return');
    expect(returned?.parentId).toBe(abandoned[0]?.parentId);
    expect(returned?.payload).toMatchObject({ reason: 'no service that collects reaches' });
    const forwarded = path.filter((n) => n.authorId === 'agent:directory').map(typeOf);
    expect(forwarded).toEqual([
      'event:fork-return',
      'event:fork',
      'tool_call',
      'notify',
      'notify',
      'notify',
      'tool_result',
      'event:forward',
    ]);
    expect(session.port.inspect('d1').moves.filter((m) => m.action === 'return')).toHaveLength(1);
  });

  it('says how far collection services are when nothing is near at all, with both attempts left as branches', async () => {
    const session = await chairCollectedFrom(BERLIN);
    expect((await session.replies()).at(-1)).toMatch(
      /^I don't know of any collection service near you for the wooden chair: the places I know are in central London, about 930 km from you\./,
    );
    const path = await session.path();
    const returns = path.filter((n) => n.kind === 'event' && n.payload['type'] === 'fork-return');
    expect(returns.map((n) => n.payload['label'])).toEqual([
      'services that collect',
      'places to take it instead',
    ]);
    expect(session.port.inspect('d1').moves.filter((m) => m.action === 'return')).toHaveLength(2);
  });
});
