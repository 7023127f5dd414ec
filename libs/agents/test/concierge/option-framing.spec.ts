import { clusterActivities, frameOptions, readChoice } from '../../src/agents/concierge';
import { demoActivities } from '../../src/agents/concierge';
import { NOW } from './concierge-harness';

describe('reading a typed pick', () => {
  const ids = ['A', 'B', 'C'];
  it.each([
    ['B', 'B'],
    ['b for all of these', 'B'],
    ['B) please', 'B'],
    ['option c', 'C'],
    ["let's go with A", 'A'],
  ])('reads %j as %s', (text, expected) => {
    expect(readChoice(text, ids)).toBe(expected);
  });

  it.each(['a quick question first', 'A or B?', 'D for all', 'none of these'])(
    'names no single option in %j',
    (text) => {
      expect(readChoice(text, ids)).toBeUndefined();
    },
  );
});

describe('clusters and options', () => {
  it('groups the quarantined demo items by the guessed type, largest first', () => {
    const quarantined = demoActivities(NOW).filter((a) => a.status === 'quarantined');
    expect(clusterActivities(quarantined).map((c) => [c.kind, c.activities.map((a) => a.id)])).toEqual([
      ['promotion', ['mail-101', 'mail-102', 'mail-103']],
      ['newsletter', ['mail-105']],
      ['service-update', ['mail-104']],
    ]);
  });

  it("offers seed 003's three readings, each with its reason and the update it would apply", () => {
    const [promotions] = clusterActivities(demoActivities(NOW).filter((a) => a.status === 'quarantined'));
    const options = frameOptions(promotions!);
    expect(options.map((o) => [o.id, o.updates.status, o.updates.classification?.autonomy_tier])).toEqual([
      ['A', 'archived', 1],
      ['B', 'processed', 2],
      ['C', 'surfaced', 3],
    ]);
    expect(options[1]?.reason).toContain('Trailgear, Trailgear Rewards and others');
  });
});
