import type { ElicitRequest, Json } from '@sweatpants/domain';

import { INTERPRET_TOOL, type ModelReply } from '../model';
import { interpretRequest, prefilled, readInterpretation } from '../off-script';
import { optionNamedIn } from './option-words';
import { OfflineModel } from './offline-model';
import { stops } from './off-script-rule';

/** How the offline model reads `text` typed while `question` waits: the runtime's whole path. */
function read(question: ElicitRequest, text: string) {
  const request = interpretRequest(question, { text });
  if (!request) throw new Error('the words were not sent to the model');
  const { rule, reply } = new OfflineModel().answer(request);
  expect(rule).toBe('offline runtime: read off-script words against the question');
  return readInterpretation(question, reply);
}

const picks = (choiceId: string) => ({ kind: 'answer', content: { choiceId } });
const TANGENT = { kind: 'tangent' };

/** The concierge's card: ids A, B, C, each label led by its letter. */
const lettered: ElicitRequest<'choose'> = {
  elicitId: 'e1',
  type: 'choose',
  message: 'How should I read these 3 items? Tap one, or type e.g. “B for all of these”.',
  payload: {
    options: [
      { id: 'A', label: 'A. Newsletter from a marketing list → Tier 1 (auto-archive)' },
      { id: 'B', label: "B. Promo from a vendor you've bought from → Tier 2 (note, don't surface)" },
      { id: 'C', label: 'C. Important update from a service you use → Tier 3 (review)' },
    ],
  },
};

/** A card whose ids are words, lettered by what it shows. */
const worded: ElicitRequest<'choose'> = {
  elicitId: 'e2',
  type: 'choose',
  message: 'Type A, B or C.',
  payload: {
    options: [
      { id: 'keep', label: 'A. Keep in inbox' },
      { id: 'note', label: 'B. Note it' },
      { id: 'drop', label: 'C. Archive' },
    ],
  },
};

/** The tidying coach's choice: unlettered options and a "Something else" that asks for words. */
const open: ElicitRequest<'choose'> = {
  elicitId: 'e3',
  type: 'choose',
  message: 'What do you need to DO in this space?',
  payload: {
    options: [
      { id: 'function-1', label: 'working' },
      { id: 'function-2', label: 'sleeping' },
      { id: 'function-3', label: 'making things' },
      { id: 'other', label: 'Something else' },
    ],
    reveals: { other: { type: 'free-text', message: 'What is it for?', payload: {} } },
  },
};

describe('the offline reading of words typed at a choice', () => {
  it.each([
    ['b', 'B'],
    ['B', 'B'],
    ['B.', 'B'],
    ['B for all of these', 'B'],
    ['b, please', 'B'],
    ['C then', 'C'],
    ['a', 'A'],
    ['A is fine', 'A'],
    ['option c', 'C'],
    ['option C please', 'C'],
    ["let's go with A", 'A'],
    ['I pick b for all of them', 'B'],
  ])('reads %j at a lettered card as %s', (text, choiceId) => {
    expect(read(lettered, text)).toEqual(picks(choiceId));
  });

  it.each([
    ['b please', 'note'],
    ['C for this one', 'drop'],
    ['drop it is', 'drop'],
    ['note', 'note'],
    ['keep in inbox', 'keep'],
  ])('reads %j by the letter the card shows, or by id or words, as %s', (text, choiceId) => {
    expect(read(worded, text)).toEqual(picks(choiceId));
  });

  it('counts the options from A when no label shows a letter, and reads an id or the option’s words', () => {
    expect(read(open, 'b')).toEqual(picks('function-2'));
    expect(read(open, 'function-3')).toEqual(picks('function-3'));
    expect(read(open, 'making things')).toEqual(picks('function-3'));
  });

  it('does not take a sentence that starts with the article for option A', () => {
    expect(read(lettered, 'a coffee mug')).toEqual(TANGENT);
    expect(read(lettered, 'a quick question first')).toEqual(TANGENT);
    // Where an option asks for words of one's own, they answer that instead.
    expect(read(open, 'a coffee mug')).toEqual({
      kind: 'answer',
      content: { choiceId: 'other', revealed: { text: 'a coffee mug' } },
    });
  });

  it('gives words that fit no option to the option that asks for words ("Something else")', () => {
    expect(read(open, 'writing letters')).toEqual({
      kind: 'answer',
      content: { choiceId: 'other', revealed: { text: 'writing letters' } },
    });
  });

  it('does not take a pick for only part of the card as a pick for all of it: it is said aside', () => {
    expect(read(lettered, 'B for the trailgear ones but bookbarn is just a newsletter')).toEqual(TANGENT);
    expect(read(lettered, 'C for all except the newsletter')).toEqual(TANGENT);
    // the words of one's own, qualified as they come, still answer "Something else"
    expect(read(open, 'mostly sleeping but I also work from bed')).toEqual({
      kind: 'answer',
      content: { choiceId: 'other', revealed: { text: 'mostly sleeping but I also work from bed' } },
    });
  });

  it('does not take a pick that decides another thing as well: the words are said aside, whole', () => {
    expect(read(open, 'sleeping mostly, and the clothes go in the wardrobe')).toEqual(TANGENT);
    expect(read(worded, 'A, then the newsletters go in the bin')).toEqual(TANGENT);
    // words of one's own for "Something else" that decide a thing too
    expect(read(open, "it's where I work from home, the laptop obviously stays")).toEqual(TANGENT);
    // a remark after the pick is no other thing decided
    expect(read(open, 'sleeping, and that is about it')).toEqual(picks('function-2'));
  });

  it.each(['sleeping, and the kids do homework here', 'sleeping and reading', 'working, plus band practice'])(
    'gives a pick and something more of the same kind, %j, to "Something else" whole, so none of it is lost',
    (text) => {
      expect(read(open, text)).toEqual({
        kind: 'answer',
        content: { choiceId: 'other', revealed: { text } },
      });
    },
  );

  it.each(['sleeping, and that is about it', 'sleeping, mostly', 'working, I guess', 'sleeping, obviously'])(
    'takes a pick with a remark after it, %j, as the pick',
    (text) => {
      expect(read(open, text)).toEqual(picks(text.startsWith('working') ? 'function-1' : 'function-2'));
    },
  );

  it('does not give words about where a thing goes to "Something else": they are said aside', () => {
    expect(read(open, 'The mugs go to the kitchen')).toEqual(TANGENT);
    expect(read(open, 'put the lamp on the desk')).toEqual(TANGENT);
  });

  it.each([
    [lettered, 'wait, what does tier 2 mean?'],
    [lettered, 'B?'],
    [lettered, 'what is option c?'],
    [worded, 'is B the one that hides it?'],
    [open, 'what do you mean by working?'],
  ])('takes a question of the user’s own as a tangent: %#', (question, text) => {
    expect(read(question, text)).toEqual(TANGENT);
  });

  it.each([
    ['archive them', 'A'],
    ['newsletters', 'A'],
    ['note them please', 'B'],
    ['review', 'C'],
    // the pick said first, then why
    ['just archive them all, I never read those', 'A'],
    // one word with a slip of the keys
    ['archve', 'A'],
    ['reveiw', 'C'],
  ])('reads %j, a word of one option’s label alone, as %s', (text, id) => {
    expect(read(lettered, text)).toEqual(picks(id));
  });

  it.each([
    "don't archive them",
    'tier',
    'I would archive the newsletters but keep a note of the promos',
    'archive them, and note the bank one',
    // a pick for one of them, then the rest: the asker reads each part
    'the one about points is important, the rest are ads',
    'archive the newsletter one, the others I need',
  ])('reads %j, a word of no single option or a longer sentence, as a tangent', (text) =>
    expect(read(lettered, text)).toEqual(TANGENT),
  );

  it.each(['A or C', 'D for all', 'none of these', 'b, or maybe option c'])(
    'takes %j, which names no single option, as a tangent',
    (text) => {
      expect(read(lettered, text)).toEqual(TANGENT);
    },
  );
});

/** The tidying coach's proposal for a mug: the kitchen first, as the offline coach proposes it. */
const mug: ElicitRequest<'propose-disposition'> = {
  elicitId: 'e4',
  type: 'propose-disposition',
  message: 'What about the coffee mug?',
  payload: {
    item: 'coffee mug',
    choices: [
      { id: 'c1', label: 'Kitchen', disposition: { kind: 'place', location: 'kitchen' } },
      { id: 'c2', label: 'Recycle', disposition: { kind: 'recycle' } },
      { id: 'c3', label: 'Not now', disposition: { kind: 'skip' } },
    ],
  },
};

/** A proposal to keep the thing, as the offline coach makes it for what it cannot place. */
const lamp: ElicitRequest<'propose-disposition'> = {
  elicitId: 'e5',
  type: 'propose-disposition',
  message: 'What about the lamp?',
  payload: {
    item: 'lamp',
    choices: [
      { id: 'c1', label: 'Keep it here', disposition: { kind: 'place', location: 'its spot here' } },
      { id: 'c2', label: 'Donate', disposition: { kind: 'donate' } },
      { id: 'c3', label: 'Not now', disposition: { kind: 'skip' } },
    ],
  },
};

const disposes = (disposition: object, wasCorrection: boolean) => ({
  kind: 'answer',
  content: { disposition, wasCorrection },
});

describe('the offline reading of words typed at a proposal for an item', () => {
  it.each([
    // keeping it means it stays, not the kitchen the card proposed
    ['keep it', disposes({ kind: 'place', location: 'here' }, true)],
    ['it stays', disposes({ kind: 'place', location: 'here' }, true)],
    ['yes', disposes({ kind: 'place', location: 'kitchen' }, false)],
    ['sounds good', disposes({ kind: 'place', location: 'kitchen' }, false)],
    ['recycle it', disposes({ kind: 'recycle' }, true)],
    ['put it in the cupboard', disposes({ kind: 'place', location: 'in the cupboard' }, true)],
    ['on the nightstand', disposes({ kind: 'place', location: 'on the nightstand' }, true)],
    ['in the wardrobe.', disposes({ kind: 'place', location: 'in the wardrobe' }, true)],
    ['take it to the shed', disposes({ kind: 'place', location: 'shed' }, true)],
    // a word after the place that colours the sentence is no part of it
    ['it lives in the shed really', disposes({ kind: 'place', location: 'in the shed' }, true)],
    // a remark of a spot after the pick is no other thing
    ['keep it, still in the box', disposes({ kind: 'place', location: 'in the box' }, true)],
    ['take it to the shed for now', disposes({ kind: 'place', location: 'shed' }, true)],
    ['it goes in the kitchen', disposes({ kind: 'place', location: 'kitchen' }, false)],
    // where it stays, said: that spot, not only "here"
    ['keys stay on the hook', disposes({ kind: 'place', location: 'on the hook' }, true)],
    ['not now', disposes({ kind: 'skip' }, true)],
    ['bin it', disposes({ kind: 'trash' }, true)],
    ["it's junk", disposes({ kind: 'trash' }, true)],
    // let go without saying where: out the way the card proposes things leave (here, recycling)
    ['it can go', disposes({ kind: 'recycle' }, true)],
    ['get rid of it', disposes({ kind: 'trash' }, true)],
    // a word of a thing's name is no choice: "junk mail", "bin bags"
    ['the junk mail goes in recycling', disposes({ kind: 'recycle' }, true)],
    // someone else would have it: given away
    ['honestly we never use it, someone else might', disposes({ kind: 'donate' }, true)],
    // someone else's: back to them, not to a place called "son"
    ["they're my partner's, not mine", disposes({ kind: 'place', location: 'your partner' }, true)],
    ['it belongs to my son', disposes({ kind: 'place', location: 'your son' }, true)],
    [
      'put it in the cupboard with the bin bags',
      disposes({ kind: 'place', location: 'in the cupboard with the bin bags' }, true),
    ],
  ])('reads "%s"', (text, reading) => {
    expect(read(mug, text)).toEqual(reading);
  });

  it('reads "they can go", where the card proposes a recycling centre, as that, and "bin them" as the bin', () => {
    const cables: ElicitRequest<'propose-disposition'> = {
      ...mug,
      payload: {
        item: 'cables',
        choices: [
          { id: 'c1', label: 'Keep them here', disposition: { kind: 'place', location: 'their spot here' } },
          {
            id: 'c2',
            label: 'Recycling centre',
            disposition: { kind: 'place', location: 'the recycling centre' },
          },
          { id: 'c3', label: 'Not now', disposition: { kind: 'skip' } },
        ],
      },
    };
    expect(read(cables, 'they can go')).toEqual(
      disposes({ kind: 'place', location: 'the recycling centre' }, true),
    );
    expect(read(cables, 'bin them')).toEqual(disposes({ kind: 'trash' }, true));
  });

  it("takes the words of one of the card's own choices as that choice", () => {
    expect(read(lamp, 'keep it')).toEqual(disposes({ kind: 'place', location: 'its spot here' }, false));
    expect(read(lamp, 'donate')).toEqual(disposes({ kind: 'donate' }, true));
  });

  it('leaves a question of their own, or words it cannot place, as a tangent', () => {
    expect(read(mug, 'is it dishwasher safe?')).toEqual(TANGENT);
    expect(read(mug, 'my grandmother gave it to me')).toEqual(TANGENT);
  });

  it.each([
    'the mug goes to the kitchen and the lamp in the bin',
    'bin it, the receipts too, and the lamp goes on the shelf',
    'keep it; the cables go in the drawer',
    // a part decided apart from the rest of the thing: two decisions, not one for all of it
    'keep the bills, bin the rest',
    'the bills I need to keep, the rest is junk',
    // a part named with why it is kept, then the rest: the rest is not all of it
    'the bills I need to pay, the rest is junk',
    'bills, the rest can go',
    // some of it by how many: a part with a decision of its own
    'two go to the kitchen, one I use for pens so it stays',
    // a part with its place, the verb left to the first: the place is not "in the cupboard, the …"
    'the clean ones go in the cupboard, the chipped ones in the box by the door',
    // a part kept, another said to go
    'the drawings I want to keep, the broken crayons can go',
    // a part with its place, another recycled: the place ends where the next part begins
    'the homework goes in their school bags, the old worksheets can be recycled',
    // most of it said fine, a few told apart: not the card's answer for all of it
    'most of them are fine but a few are chipped',
    // most of it decided, but a part of it kept by a name of its own
    'most of it can go in the recycling but I need to keep the tax stuff',
    // a part of it decided, then another thing kept by name
    "the ones I can't identify can go, I'll keep the laptop charger",
    'bin it, keep the box',
    // all of it said fine, but one told apart by a word of its own
    "they're fine but I never use the big one",
    'the mugs are ok except the red one is cracked',
  ])('leaves "%s", which decides another thing too, as a tangent: the asker reads it whole', (text) => {
    expect(read(mug, text)).toEqual(TANGENT);
  });

  it.each([
    ['keep it here, on the shelf', disposes({ kind: 'place', location: 'on the shelf' }, true)],
    ["bin it, it's broken", disposes({ kind: 'trash' }, true)],
    ['yes, and thanks', disposes({ kind: 'place', location: 'kitchen' }, false)],
    // all of it, then the rest: no part told apart
    ['bin it, and the rest too', disposes({ kind: 'trash' }, true)],
  ])('still reads "%s", whose later words name no other thing, as the answer', (text, reading) => {
    expect(read(mug, text)).toEqual(reading);
  });

  it.each([
    // a slip of the keys in one word: the word it nearly is
    ['kitchn', disposes({ kind: 'place', location: 'kitchen' }, false)],
    ['recyle', disposes({ kind: 'recycle' }, true)],
    ['kithcen', disposes({ kind: 'place', location: 'kitchen' }, false)],
    ['drawr', disposes({ kind: 'place', location: 'in the drawer' }, true)],
    // a spot of the room named bare
    ['drawer', disposes({ kind: 'place', location: 'in the drawer' }, true)],
    ['the shelf', disposes({ kind: 'place', location: 'on the shelf' }, true)],
  ])('reads "%s", one word at the card, as where the thing goes', (text, reading) => {
    expect(read(mug, text)).toEqual(reading);
  });

  it.each([
    // a place away from home, named bare
    ['tip', disposes({ kind: 'place', location: 'the tip' }, true)],
    ['the dump', disposes({ kind: 'place', location: 'the dump' }, true)],
    ['recycling centre', disposes({ kind: 'recycle' }, true)],
    ['back to the pharmacy', disposes({ kind: 'place', location: 'the pharmacy' }, true)],
    ['take them back to the chemist', disposes({ kind: 'place', location: 'chemist' }, true)],
    // someone to ask first: not decided yet
    ["they're my son's, I'll ask him", disposes({ kind: 'skip' }, true)],
    ['let me check with my wife', disposes({ kind: 'skip' }, true)],
    // mended: at a repair shop, or at home
    ['I think it can be fixed actually', disposes({ kind: 'place', location: 'the repair shop' }, true)],
    ["I'll fix it myself", disposes({ kind: 'place', location: 'here' }, true)],
    // used up first: kept, whatever becomes of them after
    ["I'll use them up first, then recycle them", disposes({ kind: 'place', location: 'here' }, true)],
  ])('reads "%s" at the card as what becomes of the thing', (text, reading) => {
    expect(read(mug, text)).toEqual(reading);
  });

  it.each(['keys', 'lamp', 'books'])(
    'leaves "%s", a short word no slip makes an answer of, as a tangent (the next thing, named)',
    (text) => {
      expect(read(mug, text)).toEqual(TANGENT);
    },
  );

  it('takes "yup" or "definitely" as the proposal, and "definitely not" as no yes to it', () => {
    expect(read(mug, 'yup')).toEqual(disposes({ kind: 'place', location: 'kitchen' }, false));
    expect(read(mug, 'definitely')).toEqual(disposes({ kind: 'place', location: 'kitchen' }, false));
    expect(read(mug, 'definitely not')).toEqual(TANGENT);
  });
});

describe('the offline reading of words that stop', () => {
  const purpose: ElicitRequest<'choose'> = {
    elicitId: 'e5',
    type: 'choose',
    message: 'What do you need to DO in this space?',
    payload: {
      options: [
        { id: 'function-1', label: 'working' },
        { id: 'other', label: 'Something else' },
      ],
      reveals: { other: { type: 'free-text', message: 'In your words', payload: {} } },
    },
  };
  const yesNo = (message: string): ElicitRequest<'confirm'> => ({
    elicitId: 'e6',
    type: 'confirm',
    message,
    payload: { default: true },
  });

  it.each(["I'm done", 'that is enough', "that's all", 'never mind', 'ok, stop'])(
    'takes "%s" as no answer to a question that is not about stopping',
    (text) => {
      expect(read(purpose, text)).toEqual(TANGENT);
      expect(read(yesNo('Is the kettle in good condition?'), text)).toEqual(TANGENT);
    },
  );

  it.each(['never mind the lamp', 'never mind it', 'never mind about the form'])(
    'takes "%s" as minding one thing, not as stopping',
    (text) => expect(stops(text)).toBe(false),
  );

  it.each([
    ['mostly, a few have stains', true],
    ['the cushions are a bit torn but otherwise fine', true],
    ['yes, like new', true],
    ['not really, they are worn out', false],
    ['no', false],
    ['absolutely', true],
    ['absolutely not, they are stained', false],
    ['definitely not', false],
  ])('reads "%s", said of a thing’s condition, as %s', (text, value) => {
    expect(read(yesNo('Are the old baby clothes in good condition?'), text)).toEqual({
      kind: 'answer',
      content: { value },
    });
  });

  it('takes "I\'m done" as yes to a question about being done', () => {
    expect(read(yesNo('Done for now?'), "I'm done")).toEqual({ kind: 'answer', content: { value: true } });
  });

  it.each(["there's a laptop, three mugs and a lamp", 'I have some papers and a mug', 'so there are books'])(
    'takes "%s", what is there, as no answer of one\'s own to an open question',
    (text) => expect(read(purpose, text)).toEqual(TANGENT),
  );

  it("still takes an answer of one's own as one", () => {
    expect(read(purpose, 'writing letters')).toEqual({
      kind: 'answer',
      content: { choiceId: 'other', revealed: { text: 'writing letters' } },
    });
  });
});

describe('the offline reading of words typed at a form', () => {
  /** The donation helper's short form, as its elicit carries it. */
  const describe: ElicitRequest<'form'> = {
    elicitId: 'e7',
    type: 'form',
    message: 'A little about the kids clothes, so I find a place that will take them',
    payload: {},
    schema: {
      type: 'object',
      required: ['condition', 'bags', 'collection'],
      properties: {
        condition: {
          type: 'string',
          enum: ['like new', 'good', 'worn'],
          description: 'What condition are they in?',
        },
        bags: { type: 'integer', minimum: 1, maximum: 10, description: 'How many bags or boxes?' },
        collection: { type: 'boolean', description: 'Would you rather they were collected?' },
      },
    },
  };
  const fills = (content: Record<string, unknown>) => ({ kind: 'answer', content });

  it.each([
    ["they're in good condition, just one box", { condition: 'good', bags: 1, collection: false }],
    ['like new, 3 bags', { condition: 'like new', bags: 3, collection: false }],
    [
      'two bags, quite worn, and I would like them collected',
      { condition: 'worn', bags: 2, collection: true },
    ],
    ["good, 2 boxes, I don't need them collected", { condition: 'good', bags: 2, collection: false }],
    ["like new, one bag, and I'd like it picked up", { condition: 'like new', bags: 1, collection: true }],
    ['worn, 1 box, please pick them up', { condition: 'worn', bags: 1, collection: true }],
    // the form's one yes/no question, answered by a plain yes
    ['good, 2 boxes, yes please', { condition: 'good', bags: 2, collection: true }],
    ['good, 2 boxes, no thanks', { condition: 'good', bags: 2, collection: false }],
    ["good, 2 boxes, not yet sure, they're heavy", { condition: 'good', bags: 2, collection: false }],
    // the offered values as people say them
    ["it's all in decent shape, maybe 3 boxes", { condition: 'good', bags: 3, collection: false }],
    ['barely used, one bag', { condition: 'like new', bags: 1, collection: false }],
    ['a bit tatty, two bags', { condition: 'worn', bags: 2, collection: false }],
    // a value named as it is beats another only said in other words ("great" is no grade here)
    [
      "it's pretty worn, 1 bag, and yes collection would be great",
      { condition: 'worn', bags: 1, collection: true },
    ],
  ])('fills the form in from "%s"', (text, content) => expect(read(describe, text)).toEqual(fills(content)));

  it('takes a plain yes as the answer to a form whose one question is yes or no', () => {
    const collect: ElicitRequest = {
      ...describe,
      message: 'A little about the old sofa, so I find a place that will take it',
      schema: {
        type: 'object',
        properties: { collection: { type: 'boolean', description: 'Would you rather it were collected?' } },
      },
    };
    expect(read(collect, "yes please, it won't fit in my car")).toEqual(fills({ collection: true }));
    expect(read(collect, "no, I'll drive it over")).toEqual(fills({ collection: false }));
    expect(read(collect, "definitely not, I'll drive it over")).toEqual(fills({ collection: false }));
  });

  it.each([
    ['in good condition', 'a required field is missing', { condition: 'good' }],
    ['good, 40 bags', 'a number out of range', { condition: 'good' }],
    ['good or worn, one bag', 'two values for one field', { bags: 1 }],
  ])('leaves "%s" as a tangent (%s): the form comes back with what the words did give', (text, _, given) =>
    expect(read(describe, text)).toEqual({ kind: 'tangent', given }),
  );

  it.each([
    ['how many is a bag?', 'a question of their own'],
    ["I'm done", 'wanting to stop'],
    ['one of them has a stain', 'nothing the form asks'],
  ])('leaves "%s" as a tangent (%s): the form comes back as it was', (text) =>
    expect(read(describe, text)).toEqual(TANGENT),
  );

  it('asks the model with the form’s fields, so a reading that breaks them is a tangent', () => {
    const request = interpretRequest(describe, { text: 'good, one box' });
    expect(request?.system).toContain('"schema":{"type":"object"');
    const reply = (answers: boolean, content: { [key: string]: Json }): ModelReply => ({
      content: [{ type: 'tool_use', id: 't1', name: INTERPRET_TOOL, input: { answers, content } }],
      stopReason: 'tool_use',
      usage: { inputTokens: 1, outputTokens: 1 },
      model: 'a model',
    });
    expect(readInterpretation(describe, reply(true, { condition: 'good', bags: 1 }))).toEqual({
      kind: 'tangent',
      given: { condition: 'good', bags: 1 },
    });
    expect(
      readInterpretation(describe, reply(true, { condition: 'good', bags: 1, collection: false })),
    ).toEqual(fills({ condition: 'good', bags: 1, collection: false }));
    // what a reading gives that is not the form's, or not valid for its field, is left out
    expect(readInterpretation(describe, reply(false, { condition: 'mint', bags: 2, colour: 'red' }))).toEqual(
      { kind: 'tangent', given: { bags: 2 } },
    );
  });

  it('asks a form again with what was given as its fields’ defaults', () => {
    const schema = prefilled(describe.schema ?? {}, { condition: 'good' });
    expect(schema['properties']).toMatchObject({
      condition: { enum: ['like new', 'good', 'worn'], default: 'good' },
      bags: { type: 'integer' },
    });
    expect(schema['properties']).not.toHaveProperty('bags.default');
    expect(describe.schema?.['properties']).not.toHaveProperty('condition.default');
  });
});

describe('optionNamedIn', () => {
  it('lets the letter a card shows win over an option whose id is that letter elsewhere in the list', () => {
    // The card shows "A. Archive" for the id "archive" and "B. Bin it" for the id "A".
    const options = [
      { id: 'archive', label: 'A. Archive' },
      { id: 'A', label: 'B. Bin it' },
    ];
    expect(optionNamedIn('a', options)?.id).toBe('archive');
    expect(optionNamedIn('b', options)?.id).toBe('A');
  });

  it('reads an option by its place on the card, and only as the whole pick', () => {
    const options = [
      { id: 'keep', label: 'A. Keep in inbox' },
      { id: 'note', label: 'B. Note it' },
      { id: 'review', label: 'C. Review' },
    ];
    expect(optionNamedIn('the first one', options)?.id).toBe('keep');
    expect(optionNamedIn('Second.', options)?.id).toBe('note');
    expect(optionNamedIn("I'll take the last option", options)?.id).toBe('review');
    expect(optionNamedIn('go with the third one please', options)?.id).toBe('review');
    expect(optionNamedIn('the fourth one', options)).toBeUndefined();
    expect(optionNamedIn('first, what does tier 2 mean', options)).toBeUndefined();
    expect(optionNamedIn('the first one was wrong', options)).toBeUndefined();
  });
});

describe('words typed at a location question', () => {
  const where: ElicitRequest<'location'> = {
    elicitId: 'e9',
    type: 'location',
    message: 'Share roughly where you are?',
    payload: { accuracy: 'low' },
  };

  it('are left to an agent’s rules (a town needs a list of places); with none that reads them, they are said aside', () => {
    const request = interpretRequest(where, { text: "I'm in Leeds" });
    if (!request) throw new Error('the words were not sent to the model');
    const { rule, reply } = new OfflineModel().answer(request);
    expect(rule).toBe('offline runtime: words no rule read at a question are said aside');
    expect(readInterpretation(where, reply)).toEqual(TANGENT);
  });
});
