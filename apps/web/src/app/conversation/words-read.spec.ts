import type { TreeNode } from '@sweatpants/domain';

import { chatItems } from './chat-items';
import { nodeView } from './node-view';
import { readFromWords } from './words-read';

let n = 0;
function node(kind: TreeNode['kind'], payload: Record<string, unknown>): TreeNode {
  n += 1;
  return {
    id: String(n).padStart(64, '0'),
    conversationId: 'c',
    parentId: null,
    depth: n,
    kind,
    payload,
    authorId: 'x',
    createdAt: new Date(n * 1000).toISOString(),
  } as TreeNode;
}

/** The runtime's reading of words typed at a question: its side call's tool call. */
function reading(answers: boolean, content?: Record<string, unknown>): TreeNode {
  return node('assistant', {
    text: '',
    purpose: 'interpret-off-script',
    content: [
      {
        type: 'tool_use',
        id: 't',
        name: 'interpret_off_script',
        input: { answers, ...(content ? { content } : {}) },
      },
    ],
  });
}

const form = {
  elicitId: 'f1',
  type: 'form',
  message: 'A little about the winter coat',
  payload: {},
  schema: {
    type: 'object',
    properties: {
      condition: {
        type: 'string',
        enum: ['like new', 'good', 'worn'],
        description: 'What condition is it in?',
      },
      bags: { type: 'integer', description: 'How many bags or boxes?' },
    },
    required: ['condition', 'bags'],
  },
};

describe('what words typed at a question were read as', () => {
  it('is the reading’s answer when the agent took it: the question shows it, from the words', () => {
    const asked = node('elicit', form);
    const typed = node('response', { elicitId: 'f1', action: 'other', content: { text: 'worn, one bag' } });
    const path = [node('root', {}), asked, typed, reading(true, { condition: 'worn', bags: 1 })];

    expect(readFromWords(path).get('f1')).toEqual({ condition: 'worn', bags: 1 });
    const [item] = chatItems(path, [], { steps: false }).filter((i) => i.node === asked);
    expect(nodeView(asked, item?.answer ?? null)).toEqual({
      kind: 'question',
      message: 'A little about the winter coat',
      answer: 'What condition is it in? worn · How many bags or boxes? 1',
      offScript: true,
    });
  });

  it('gives the question the same answer each time the path is read, so the chat does not draw it again', () => {
    const asked = node('elicit', form);
    const typed = node('response', { elicitId: 'f1', action: 'other', content: { text: 'worn, one bag' } });
    const path = [node('root', {}), asked, typed, reading(true, { condition: 'worn', bags: 1 })];
    const answerOf = () => chatItems(path, [], { steps: false }).find((i) => i.node === asked)?.answer;
    expect(answerOf()).toBe(answerOf());
  });

  it('is nothing for words that were a tangent, or a reading asked again', () => {
    const asked = node('elicit', form);
    const typed = node('response', {
      elicitId: 'f1',
      action: 'other',
      content: { text: 'is a coat a coat?' },
    });
    expect(readFromWords([asked, typed, reading(false)]).size).toBe(0);

    // the words said yes, but the question came back (its reading was not taken)
    const again = node('elicit', { ...form, elicitId: 'f2', resumes: 'f1' });
    expect(readFromWords([asked, typed, reading(true, { condition: 'mint' }), again]).size).toBe(0);
  });

  it('is the answer the turn of a tangent settled the question with, shown as from the words', () => {
    const space = {
      elicitId: 's1',
      type: 'choose',
      message: 'What do you need to DO in this space?',
      payload: {
        options: [
          { id: 'function-1', label: 'working' },
          { id: 'function-2', label: 'studying' },
        ],
      },
    };
    const asked = node('elicit', space);
    const typed = node('response', {
      elicitId: 's1',
      action: 'other',
      content: { text: "it's where I work from home, the laptop obviously stays" },
    });
    const path = [
      node('root', {}),
      asked,
      typed,
      reading(false),
      node('assistant', { text: 'Got it: this space is for working. The laptop stays for sure.' }),
      node('event', {
        type: 'question-settled',
        elicitId: 's1',
        action: 'accept',
        content: { choiceId: 'function-1' },
      }),
    ];

    expect(readFromWords(path).get('s1')).toEqual({ choiceId: 'function-1' });
    const [item] = chatItems(path, [], { steps: false }).filter((i) => i.node === asked);
    expect(nodeView(asked, item?.answer ?? null)).toMatchObject({ answer: 'working', offScript: true });
  });

  it('is nothing for a question the turn of a tangent set aside', () => {
    const asked = node('elicit', form);
    const typed = node('response', { elicitId: 'f1', action: 'other', content: { text: 'not now' } });
    const settled = node('event', { type: 'question-settled', elicitId: 'f1', action: 'decline' });
    expect(readFromWords([asked, typed, reading(false), settled]).size).toBe(0);
  });
});
