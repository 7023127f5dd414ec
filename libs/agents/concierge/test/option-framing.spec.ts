import { cardOptions, clusterActivities, frameOptions, readChoice } from '../src';
import { demoActivities } from '../src';
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

  it('says the reasons of several senders in the plural, and of one in the singular', () => {
    const [promotions, newsletter] = clusterActivities(
      demoActivities(NOW).filter((a) => a.status === 'quarantined'),
    );
    expect(frameOptions(promotions!).map((o) => o.reason.split('.')[0])).toEqual([
      'If Trailgear, Trailgear Rewards and others only send bulk mail you never act on, I archive it without asking',
      'If Trailgear, Trailgear Rewards and others are shops you use, I keep a note of their offers but do not show them to you',
      'If mail from Trailgear, Trailgear Rewards and others can change something for you, I show it to you every time',
    ]);
    expect(frameOptions(newsletter!)[1]?.reason).toMatch(
      /^If [^,]+ is a shop you use, I keep a note of its offers/,
    );
  });
});

describe('the letters on the cards', () => {
  it('shows each option its letter once, and a typed letter picks that option', () => {
    const cards = cardOptions([
      { id: 'keep', label: 'Keep in inbox' },
      { id: 'B', label: 'B) Note it' },
      { id: 'drop', label: 'c. Archive' },
    ]);
    // "B" is taken by the option whose id it is; the others get the letters left, in order.
    expect(cards.map((c) => c.shown)).toEqual(['A. Keep in inbox', 'B. Note it', 'C. Archive']);
    const ids = cards.map((c) => c.id);
    const letters = cards.map((c) => c.letter);
    expect(readChoice('a', ids, letters)).toBe('keep');
    expect(readChoice('C for this one', ids, letters)).toBe('drop');
    expect(readChoice('drop it is', ids, letters)).toBe('drop');
    expect(readChoice('A or C?', ids, letters)).toBeUndefined();
  });
});
