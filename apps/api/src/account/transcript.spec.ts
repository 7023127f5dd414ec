import type { ConversationRecord, NodeKind, TreeNode } from '@sweatpants/domain';
import { transcript } from './transcript';

const PERSON = '0b7c5e3e-8d51-4c5a-9f0e-3c2a1d4b5e6f';
const CONVERSATION: ConversationRecord = {
  id: '5d1f0c3a-7b2e-4e8f-9a6d-1c0b2a3d4e5f',
  agent: 'tidying',
  title: 'The hall cupboard',
  ownerId: PERSON,
  head: 'f'.repeat(64),
  createdAt: '2026-11-24T16:11:12.000Z',
  updatedAt: '2026-11-24T16:20:00.000Z',
  archivedAt: null,
};
const PHOTO = { mediaType: 'image/png', data: 'iVBORw0KGgo=' };
/** Node hashes, uuids and elicit ids: none belongs in words for a person. */
const IDS = /\b[0-9a-f]{64}\b|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|q-\d/;

type Step = [kind: NodeKind, payload: Record<string, unknown>, authorId?: string];

function pathOf(...steps: Step[]): TreeNode[] {
  return [['root', {}] as Step, ...steps].map(([kind, payload, authorId], depth) => ({
    id: depth.toString(16).padStart(64, '0'),
    conversationId: CONVERSATION.id,
    parentId: depth === 0 ? null : (depth - 1).toString(16).padStart(64, '0'),
    depth,
    kind,
    payload: payload as TreeNode['payload'],
    authorId: authorId ?? (kind === 'user' || kind === 'response' ? PERSON : 'agent:tidying'),
    createdAt: CONVERSATION.createdAt,
  }));
}

const elicit = (elicitId: string, type: string, message: string, payload: object, schema?: object): Step => [
  'elicit',
  { elicitId, type, message, payload, ...(schema ? { schema } : {}) },
];
const response = (elicitId: string, action: string, content?: object): Step => [
  'response',
  { elicitId, action, ...(content ? { content } : {}) },
];
const link = () => '../../photos/abc.png';

describe('transcript', () => {
  it('tells the HEAD path in words: who said what, each question with its answer, never an id', () => {
    const words = transcript(
      CONVERSATION,
      pathOf(
        elicit('q-0', 'chat', '', {}),
        response('q-0', 'accept', { text: 'My hall cupboard is full', photos: [PHOTO] }),
        ['tool_call', { name: 'propose_disposition', input: {} }],
        ['assistant', { text: 'Start with the coats.' }],
        elicit('q-1', 'choose', 'What is the cupboard for?', {
          options: [
            { id: 'function-1', label: 'coats' },
            { id: 'other', label: 'Something else' },
          ],
        }),
        response('q-1', 'accept', { choiceId: 'other', revealed: { text: 'the hoover' } }),
        ['mode', { from: 'surveying', to: 'sorting' }],
        ['user', { text: '[Continue as: Sorting] first action', synthetic: true }, 'agent:tidying'],
        elicit('q-2', 'propose-disposition', 'What about the umbrella?', {
          item: 'umbrella',
          choices: [
            { id: 'choice-1', label: 'By the door', disposition: { kind: 'place', location: 'door' } },
            { id: 'choice-2', label: 'Donate', disposition: { kind: 'donate' } },
          ],
        }),
        response('q-2', 'accept', { disposition: { kind: 'donate' }, wasCorrection: false }),
        elicit('q-3', 'confirm', 'Shall we keep going?', { default: true }),
        response('q-3', 'accept', { value: false }),
        elicit('q-4', 'free-text', 'Anything that worries you?', {}),
        response('q-4', 'decline'),
        elicit('q-5', 'group', 'A few details', {
          questions: [
            { id: 'g-1', type: 'confirm', message: 'Is it yours?', payload: { default: true } },
            { id: 'g-2', type: 'free-text', message: 'Since when?', payload: {} },
          ],
        }),
        response('q-5', 'accept', { answers: { 'g-1': { value: true }, 'g-2': { text: 'last spring' } } }),
        elicit(
          'q-6',
          'form',
          'Where do you live?',
          {},
          {
            type: 'object',
            properties: { city: { type: 'string', title: 'City' }, floor: { type: 'number' } },
          },
        ),
        response('q-6', 'accept', { city: 'Leeds', floor: 2 }),
        elicit('q-7', 'location', 'Where are you?', { accuracy: 'low' }),
        response('q-7', 'accept', { lat: 53.8, lng: -1.55 }),
        elicit('q-8', 'choose', 'Which shelf first?', { options: [{ id: 's-1', label: 'Top' }] }),
        response('q-8', 'other', { text: 'the bottom one, look', photos: [PHOTO] }),
        ['summary', { text: 'The person sorted the coats.', covers: { fromId: 'a', toId: 'b', count: 9 } }],
        ['notify', { message: 'Sorting 3 of 9' }],
        ['user', { text: 'Done for today' }],
      ),
      link,
      'the coach',
    );

    expect(words).toBe(
      [
        '# The hall cupboard',
        '',
        'With the coach, started 2026-11-24 16:11 UTC.',
        '',
        '**You**: My hall cupboard is full',
        '',
        '![Photo 1](../../photos/abc.png)',
        '',
        '**The coach**: Start with the coats.',
        '',
        '**The coach asked**: What is the cupboard for? *(coats or Something else)*',
        '',
        '**You answered**: Something else: the hoover',
        '',
        '**The coach asked**: What about the umbrella? *(By the door or Donate)*',
        '',
        '**You answered**: Donate',
        '',
        '**The coach asked**: Shall we keep going?',
        '',
        '**You answered**: No',
        '',
        '**The coach asked**: Anything that worries you?',
        '',
        '**You answered**: (skipped the question)',
        '',
        '**The coach asked**: A few details',
        '',
        '**You answered**: Is it yours? Yes; Since when? last spring',
        '',
        '**The coach asked**: Where do you live?',
        '',
        '**You answered**: City: Leeds; floor: 2',
        '',
        '**The coach asked**: Where are you?',
        '',
        '**You answered**: shared a location (53.80000, -1.55000)',
        '',
        '**The coach asked**: Which shelf first? *(Top)*',
        '',
        '**You answered**: the bottom one, look',
        '',
        '![Photo 1](../../photos/abc.png)',
        '',
        '*Earlier in this conversation, in short*: The person sorted the coats.',
        '',
        '**You**: Done for today',
        '',
      ].join('\n'),
    );
    expect(words).not.toMatch(IDS);
    expect(words).not.toMatch(/[{}]/); // no JSON
  });

  it('marks an archived conversation in its heading, says when and how to bring it back, and names a photo it lacks', () => {
    const words = transcript(
      { ...CONVERSATION, agent: 'concierge', title: '', archivedAt: '2026-11-25T09:30:00.000Z' },
      pathOf(['user', { text: '', photos: [PHOTO, PHOTO] }]),
      (photo) => (photo === PHOTO ? null : link()),
      'the concierge',
    );
    expect(words).toBe(
      [
        '# Untitled conversation (archived)',
        '',
        'With the concierge, started 2026-11-24 16:11 UTC.',
        '',
        'You archived this conversation on 2026-11-25 09:30 UTC: it is not in your list, and Archived in the list brings it back.',
        '',
        '**You**: *(photo 1 is not in this archive)*',
        '',
        '*(photo 2 is not in this archive)*',
        '',
      ].join('\n'),
    );
  });
});
