import { decide, type Extract, type PhotoAnalysis, type SessionState } from '../src';
import {
  initialSession,
  mkActiveState,
  mkDecisionSupport,
  mkRefining,
  type ActiveState,
  type PhaseData,
} from '../src/session-state';
import {
  mkAnxietyTrigger,
  mkCategoryName,
  mkItemName,
  mkLocation,
  mkSpaceFunction,
  type ItemName,
} from '../src/tidying-types';

const value = <T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T => {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
};
const item = (text: string) => value(mkItemName(text));
const active: ActiveState = value(mkActiveState('working', ['monitor']));
const anxious: ActiveState = { ...active, lastAnxiety: value(mkAnxietyTrigger('old letters')) };

const session = (phaseData: PhaseData, unsure: ItemName[] = [], belongs: ItemName[] = []): SessionState => ({
  ...initialSession,
  phaseData,
  piles: { belongs, out: [], unsure },
});
const surveying = (fn: string | null = null, anchors: string[] = []) =>
  session({
    phase: 'surveying',
    gatheredFunction: fn ? value(mkSpaceFunction(fn)) : null,
    gatheredAnchors: anchors.map(item),
  });
const sorting = (currentItem: string | null = null, a = active) =>
  session({ phase: 'sorting', active: a, currentItem: currentItem ? item(currentItem) : null });
const splitting = (unsure: string[]) =>
  session(
    { phase: 'splitting', active, categories: [value(mkCategoryName('papers'))], assignment: {} },
    unsure.map(item),
  );
const refiningData = (items: string[], current: string | null = null) =>
  value(
    mkRefining(
      active,
      new Map([[value(mkCategoryName('papers')), items.map(item)]]),
      'papers',
      current ? item(current) : null,
    ),
  );
const refining = (items: string[], current: string | null = null) => session(refiningData(items, current));
const ended = () => session({ phase: 'ended', function: value(mkSpaceFunction('working')), anchors: [] });
const stuck = (on: string) =>
  session(value(mkDecisionSupport(active, on, { phase: 'sorting', active, currentItem: item(on) })));

const says = (over: Partial<Extract>): Extract => ({
  intent: 'continue',
  item: null,
  also: [],
  alsoDecided: [],
  choice: null,
  place: null,
  function: null,
  anchors: null,
  anxiety: null,
  ...over,
});
const photo = (over: Partial<PhotoAnalysis>): PhotoAnalysis => ({
  roomType: 'office',
  chaosLevel: 'moderate',
  visibleItems: [item('mugs'), item('old letters')],
  blockedFunction: null,
  firstTarget: item('mugs'),
  ...over,
});

type Row = [string, SessionState, PhotoAnalysis | null, Extract, unknown, string];

const rows: Row[] = [
  // any phase
  [
    'stop wins, in any phase',
    sorting('lamp'),
    photo({ chaosLevel: 'buried' }),
    says({ intent: 'stop' }),
    { tag: 'summary' },
    'ended',
  ],
  ['stop while surveying', surveying(), null, says({ intent: 'stop' }), { tag: 'summary' }, 'ended'],
  ['stop once ended sums up again', ended(), null, says({ intent: 'stop' }), { tag: 'summary' }, 'ended'],
  [
    'after the end, a photo of another room starts a new session',
    { ...ended(), room: 'bedroom' },
    photo({}),
    says({ intent: 'item' }),
    { tag: 'ask-function' },
    'surveying',
  ],
  [
    'after the end, asking for a new session starts one',
    ended(),
    null,
    says({ intent: 'restart' }),
    { tag: 'ask-function' },
    'surveying',
  ],
  [
    'after the end, more words carry the same session on',
    ended(),
    null,
    says({ intent: 'item', item: item('lamp') }),
    { tag: 'ask-item-decision', item: item('lamp') },
    'sorting',
  ],
  // photo-aware
  [
    'a buried room skips the questions',
    surveying(),
    photo({ chaosLevel: 'buried' }),
    says({}),
    { tag: 'first-instruction' },
    'surveying',
  ],
  [
    'a buried room with a known function starts sorting',
    surveying('working'),
    photo({ chaosLevel: 'buried' }),
    says({}),
    { tag: 'first-instruction' },
    'sorting',
  ],
  [
    'a clear room is acknowledged',
    sorting(),
    photo({ chaosLevel: 'clear' }),
    says({}),
    { tag: 'ack-progress', note: 'the space looks clear' },
    'sorting',
  ],
  [
    'a blocked function with a known purpose starts sorting',
    surveying(),
    photo({ blockedFunction: "can't use the desk" }),
    says({ function: value(mkSpaceFunction('working')) }),
    { tag: 'first-instruction' },
    'sorting',
  ],
  [
    'a blocked function without a purpose still asks for it',
    surveying(),
    photo({ blockedFunction: "can't use the desk" }),
    says({}),
    { tag: 'ask-function' },
    'surveying',
  ],
  // anxiety
  [
    'anxiety said now pivots away, towards the photo target',
    sorting(),
    photo({}),
    says({ intent: 'help', anxiety: value(mkAnxietyTrigger('old letters')) }),
    { tag: 'pivot-away', trigger: 'old letters', location: 'mugs' },
    'sorting',
  ],
  [
    'the last trigger coming up again pivots away',
    sorting(null, anxious),
    null,
    says({ intent: 'item', item: item('letters') }),
    { tag: 'pivot-away', trigger: 'old letters', location: 'the easiest corner' },
    'sorting',
  ],
  [
    'an unrelated item is not steered by the last trigger',
    sorting(null, anxious),
    null,
    says({ intent: 'item', item: item('lamp') }),
    { tag: 'ask-item-decision', item: 'lamp' },
    'sorting',
  ],
  // surveying
  [
    'surveying without a function asks for it',
    surveying(),
    null,
    says({}),
    { tag: 'ask-function' },
    'surveying',
  ],
  [
    'surveying with a function but no anchors asks for them',
    surveying('working'),
    null,
    says({ intent: 'item' }),
    { tag: 'ask-anchors' },
    'surveying',
  ],
  [
    'surveying with function and anchors begins',
    surveying('working', ['monitor']),
    null,
    says({ intent: 'item' }),
    { tag: 'first-instruction' },
    'sorting',
  ],
  [
    'surveying: ready to start skips the anchors',
    surveying('working'),
    null,
    says({ intent: 'start' }),
    { tag: 'first-instruction' },
    'sorting',
  ],
  // sorting
  [
    'sorting: trash',
    sorting('lamp'),
    null,
    says({ intent: 'decided', choice: 'trash' }),
    { tag: 'instruct-trash' },
    'sorting',
  ],
  [
    'sorting: a place',
    sorting('lamp'),
    null,
    says({ intent: 'decided', choice: 'place', place: value(mkLocation('shelf')) }),
    { tag: 'instruct-place', location: 'shelf', item: 'lamp' },
    'sorting',
  ],
  [
    'sorting: more things decided in the same words go with the first, each as said',
    sorting('lamp'),
    null,
    says({
      intent: 'decided',
      choice: 'place',
      place: value(mkLocation('shelf')),
      alsoDecided: [
        { item: item('books'), choice: 'place', place: value(mkLocation('nightstand')) },
        { item: item('receipts'), choice: 'trash', place: null },
        { item: item('scarf'), choice: 'unsure', place: null },
        { item: item('mug'), choice: 'keep', place: null },
      ],
    }),
    {
      tag: 'instruct-place',
      location: 'shelf',
      item: 'lamp',
      alsoSorted: [
        { tag: 'instruct-place', location: 'nightstand', item: 'books' },
        { tag: 'instruct-trash', item: 'receipts' },
        { tag: 'instruct-unsure', item: 'scarf' },
        { tag: 'instruct-place', location: 'its place in this space', item: 'mug' },
      ],
    },
    'sorting',
  ],
  [
    'sorting: a further thing with no place for its place, or the thing in question again, is not sorted',
    sorting('lamp'),
    null,
    says({
      intent: 'decided',
      choice: 'trash',
      alsoDecided: [
        { item: item('books'), choice: 'place', place: null },
        { item: item('lamp'), choice: 'keep', place: null },
      ],
    }),
    { tag: 'instruct-trash' },
    'sorting',
  ],
  [
    'sorting: further decisions wait while the first is only asked about',
    sorting('lamp'),
    null,
    says({
      intent: 'decided',
      choice: 'place',
      alsoDecided: [{ item: item('books'), choice: 'trash', place: null }],
    }),
    { tag: 'ask-item-decision', item: 'lamp' },
    'sorting',
  ],
  [
    'sorting: a place without where asks again',
    sorting('lamp'),
    null,
    says({ intent: 'decided', choice: 'place' }),
    { tag: 'ask-item-decision', item: 'lamp' },
    'sorting',
  ],
  [
    'sorting: keep',
    sorting('lamp'),
    null,
    says({ intent: 'decided', choice: 'keep' }),
    { tag: 'instruct-place', location: 'its place in this space', item: 'lamp' },
    'sorting',
  ],
  [
    'sorting: unsure',
    sorting('lamp'),
    null,
    says({ intent: 'decided', choice: 'unsure' }),
    { tag: 'instruct-unsure' },
    'sorting',
  ],
  [
    'sorting: decided without a choice',
    sorting(),
    null,
    says({ intent: 'decided' }),
    { tag: 'instruct-next' },
    'sorting',
  ],
  [
    'sorting: an item named',
    sorting(),
    null,
    says({ intent: 'item', item: item('mug') }),
    { tag: 'ask-item-decision', item: 'mug' },
    'sorting',
  ],
  [
    'sorting: an item meant but not named',
    sorting(),
    null,
    says({ intent: 'item' }),
    { tag: 'ask-what-is-it' },
    'sorting',
  ],
  [
    'sorting: help on an item',
    sorting('lamp'),
    null,
    says({ intent: 'help' }),
    { tag: 'decision-aid', item: 'lamp' },
    'decision-support',
  ],
  [
    'sorting: help once the current item is decided checks energy',
    session({ phase: 'sorting', active, currentItem: item('lamp') }, [], [item('lamp')]),
    null,
    says({ intent: 'help' }),
    { tag: 'energy-check' },
    'sorting',
  ],
  [
    'sorting: help once the current item is put off ("not now") checks energy, not the item again',
    session({ phase: 'sorting', active, currentItem: item('lawnmower') }, [item('lawnmower')]),
    null,
    says({ intent: 'help' }),
    { tag: 'energy-check' },
    'sorting',
  ],
  [
    'sorting: going on with the current item, named, is for the clarifying mode',
    sorting('mug'),
    null,
    says({ intent: 'continue', item: item('mug') }),
    { tag: 'ask-what-is-it' },
    'sorting',
  ],
  [
    'sorting: putting off the current item, named, is for the clarifying mode',
    sorting('mug'),
    null,
    says({ intent: 'decided', choice: 'unsure', item: item('mug') }),
    { tag: 'ask-what-is-it' },
    'sorting',
  ],
  [
    'sorting: putting off another item is the unsure pile',
    sorting('mug'),
    null,
    says({ intent: 'decided', choice: 'unsure', item: item('cable') }),
    { tag: 'instruct-unsure' },
    'sorting',
  ],
  [
    'sorting: help without an item',
    sorting(),
    null,
    says({ intent: 'help' }),
    { tag: 'energy-check' },
    'sorting',
  ],
  [
    'sorting: more than five unsure splits the pile',
    session(
      { phase: 'sorting', active, currentItem: null },
      ['bill', 'letter', 'cable', 'mug', 'receipt', 'sock'].map(item),
    ),
    null,
    says({}),
    {
      tag: 'instruct-split',
      categories: ['papers', 'electronics', 'clothes', 'kitchen things'],
      assignment: {},
    },
    'splitting',
  ],
  [
    'sorting: more than five unsure splits the pile before a named item, however they got there',
    session({ phase: 'sorting', active, currentItem: null }, ['a', 'b', 'c', 'd', 'e', 'f'].map(item)),
    null,
    says({ intent: 'item', item: item('lamp') }),
    { tag: 'instruct-split', categories: ['everything else'], assignment: {} },
    'splitting',
  ],
  [
    'sorting: more than five unsure still takes a decision first',
    session(
      { phase: 'sorting', active, currentItem: item('lamp') },
      ['a', 'b', 'c', 'd', 'e', 'f'].map(item),
    ),
    null,
    says({ intent: 'decided', choice: 'trash' }),
    { tag: 'instruct-trash' },
    'sorting',
  ],
  [
    'sorting: five unsure do not',
    session({ phase: 'sorting', active, currentItem: null }, ['a', 'b', 'c', 'd', 'e'].map(item)),
    null,
    says({}),
    { tag: 'instruct-next' },
    'sorting',
  ],
  [
    'sorting: every ten items an energy check',
    session({ phase: 'sorting', active, currentItem: null }, [], 'abcdefghij'.split('').map(item)),
    null,
    says({}),
    { tag: 'energy-check' },
    'sorting',
  ],
  ['sorting: go on', sorting(), null, says({}), { tag: 'instruct-next' }, 'sorting'],
  [
    'sorting: "ok, the cables first" goes on with the cables',
    sorting(),
    null,
    says({ intent: 'start', item: item('cables') }),
    { tag: 'ask-item-decision', item: 'cables' },
    'sorting',
  ],
  // splitting
  [
    'splitting: go on refines the first unsure item',
    splitting(['bill', 'sock']),
    null,
    says({ intent: 'start' }),
    { tag: 'ask-item-decision', item: 'bill' },
    'refining',
  ],
  [
    'splitting: refining starts with the first item of the biggest category',
    session(
      {
        phase: 'splitting',
        active,
        categories: [value(mkCategoryName('electronics')), value(mkCategoryName('papers'))],
        assignment: {},
      },
      ['bill', 'cable', 'charger'].map(item),
    ),
    null,
    says({ intent: 'start' }),
    { tag: 'ask-item-decision', item: 'cable' },
    'refining',
  ],
  [
    'splitting: help checks energy',
    splitting(['bill']),
    null,
    says({ intent: 'help' }),
    { tag: 'energy-check' },
    'splitting',
  ],
  // refining
  [
    'refining: a decision with items left stays',
    refining(['bill', 'letter'], 'bill'),
    null,
    says({ intent: 'decided', choice: 'trash' }),
    { tag: 'instruct-trash' },
    'refining',
  ],
  [
    'refining: the last decision goes back to sorting',
    refining(['bill'], 'bill'),
    null,
    says({ intent: 'decided', choice: 'trash' }),
    { tag: 'instruct-trash' },
    'sorting',
  ],
  [
    'refining: go on asks about the next item',
    refining(['bill', 'letter']),
    null,
    says({}),
    { tag: 'ask-item-decision', item: 'bill' },
    'refining',
  ],
  [
    'refining: every category gone through, nothing unsure: back to sorting',
    refining([]),
    null,
    says({ intent: 'start' }),
    { tag: 'instruct-next' },
    'sorting',
  ],
  [
    'refining: every category gone through, some put off again: back to sorting, asking about energy',
    session(refiningData([]), [item('bill')]),
    null,
    says({ intent: 'start' }),
    { tag: 'energy-check' },
    'sorting',
  ],
  [
    'refining: an item named after the categories are done is asked about in sorting',
    refining([]),
    null,
    says({ intent: 'item', item: item('stapler') }),
    { tag: 'ask-item-decision', item: 'stapler' },
    'sorting',
  ],
  [
    'refining: help on an item supports the decision',
    refining(['bill'], 'bill'),
    null,
    says({ intent: 'help' }),
    { tag: 'decision-aid', item: 'bill' },
    'decision-support',
  ],
  // decision support
  [
    'decision support: decided returns to where it was',
    stuck('lamp'),
    null,
    says({ intent: 'decided', choice: 'trash' }),
    { tag: 'instruct-trash' },
    'sorting',
  ],
  [
    'decision support: still stuck checks energy',
    stuck('lamp'),
    null,
    says({ intent: 'help' }),
    { tag: 'energy-check' },
    'decision-support',
  ],
  ['decision support: go on moves on', stuck('lamp'), null, says({}), { tag: 'instruct-next' }, 'sorting'],
];

describe('decide', () => {
  it.each(rows)('%s', (_name, state, analysis, extract, action, nextPhase) => {
    expect(decide(state, analysis, extract)).toEqual({ action, nextPhase });
  });

  it('is pure: the same inputs give the same decision and leave the state untouched', () => {
    const state = sorting('lamp');
    const copy = JSON.stringify(state);
    const extract = says({ intent: 'decided', choice: 'trash' });
    expect(decide(state, null, extract)).toEqual(decide(state, null, extract));
    expect(JSON.stringify(state)).toBe(copy);
  });
});
