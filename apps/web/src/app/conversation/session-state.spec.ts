import { sessionStateView } from './session-state';

describe('the session panel', () => {
  it('shows where each item on its way out goes, and the spot here of one kept when it was named', () => {
    const view = sessionStateView({
      at: 'h',
      agent: 'tidying',
      state: {
        phase: 'sorting',
        itemsProcessed: 4,
        piles: { belongs: ['lamp', 'keys', 'bills', 'shoes'], out: ['mugs', 'old letters'], unsure: [] },
        destinations: { mugs: 'the kitchen', 'old letters': 'trash' },
        spots: { keys: 'on the hook by the door', bills: 'side table', shoes: 'by the door' },
        anchors: [],
      },
    });
    // Each place as the arrow reads it, whether the words said "on the hook" or "side table".
    expect(view.piles).toEqual([
      {
        label: 'Belongs here',
        items: ['lamp', 'keys → hook by the door', 'bills → side table', 'shoes → by the door'],
      },
      { label: 'Out', items: ['mugs → kitchen', 'old letters → trash'] },
      { label: 'Unsure', items: [] },
    ]);
  });

  it('lists what is still to go: the things seen or named that are on no pile yet, nor staying for sure', () => {
    const view = sessionStateView({
      at: 'h',
      agent: 'tidying',
      state: {
        phase: 'sorting',
        itemsProcessed: 1,
        piles: { belongs: ['laptop'], out: [], unsure: [] },
        destinations: {},
        seen: ['laptop', 'mugs', 'papers', 'desk lamp'],
        anchors: ['desk lamp'],
      },
    });
    expect(view.lists).toEqual([
      { label: 'Still to go', items: ['mugs', 'papers'] },
      { label: 'Staying for sure', items: ['desk lamp'] },
    ]);
  });

  it('shows how far the concierge review is, and what was applied to each item', () => {
    const view = sessionStateView({
      at: 'h',
      agent: 'concierge',
      state: {
        mode: 'interview',
        review: {
          done: 1,
          total: 2,
          items: [
            { id: 'a1', title: 'Spring sale', decision: { label: 'B. Promo → Tier 2' } },
            { id: 'a2', title: 'Bank notice', decision: null },
          ],
        },
      },
    });
    expect(view.headline).toEqual([{ label: 'Reviewed', value: '1 of 2' }]);
    expect(view.lists).toEqual([
      {
        label: 'Items under review',
        items: ['Spring sale: B. Promo → Tier 2', 'Bank notice: not decided yet'],
      },
    ]);
  });

  it('lists what the concierge review learnt from the picks, once it learnt something', () => {
    const view = sessionStateView({
      at: 'h',
      agent: 'concierge',
      state: {
        mode: 'interview',
        review: { done: 0, total: 0, items: [], learnt: ['B. Promo → Tier 2 for a1'] },
      },
    });
    expect(view.lists).toEqual([
      { label: 'Items under review', items: [] },
      { label: 'Learnt from your picks', items: ['B. Promo → Tier 2 for a1'] },
    ]);
  });

  it('names no mode: it is how the agent works, not something the person tracks', () => {
    const view = sessionStateView({ at: 'h', agent: 'donations', state: { mode: 'helping', data: null } });
    expect(view).toEqual({ agent: 'donations', headline: [], piles: [], lists: [] });
  });
});
