import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import { DONATIONS_OFFLINE_RULES } from '../src';
import { coachByRuleOfThumb, coachGuessing, happyAnswers, openSession } from './donations-session';

const offline = () => new OfflineModel(DONATIONS_OFFLINE_RULES);
const alwaysDonate = () => coachGuessing(() => 'donate');

describe('the donation helper, offline', () => {
  it('walks a coat from the check to the nearest place, said before the address is offered to copy', async () => {
    const coach = alwaysDonate();
    const session = await openSession(offline(), coach);
    try {
      await session.say("I'd like to give away my winter coat, please", happyAnswers);

      expect(coach.asked).toEqual(['winter coat']);
      expect(session.asked.map((q) => q.type)).toEqual(['form', 'location', 'clipboard-write']);
      const [form, location, copy] = session.asked;
      // an MCP-style flat form: each field a primitive or an enum, with a title the person reads
      expect(form!.schema).toMatchObject({
        type: 'object',
        properties: {
          condition: { enum: ['like new', 'good', 'worn'] },
          collection: { type: 'boolean' },
        },
      });
      // one coat: no bags or boxes to count
      expect(form!.schema?.['properties']).not.toHaveProperty('bags');
      expect(location!.payload).toEqual({ accuracy: 'low' });
      // the nearest place that takes clothes, from the person's point
      expect(copy!.payload).toEqual({
        text: 'Textile bank, Brunswick Centre car park, Bernard Street, WC1N',
      });

      const path = await session.path();
      const notices = path.filter((n) => n.kind === 'notify').map((n) => n.payload);
      expect(notices).toEqual([
        { message: 'Checked the charity shops', progress: 1, total: 3 },
        { message: 'Checked the clothes and textile banks', progress: 2, total: 3 },
        { message: 'Checked the reuse centres', progress: 3, total: 3 },
      ]);
      // the browser's "acquiring" reached the tool that asked, and is in what it told the model
      const found = path.find((n) => n.kind === 'tool_result' && n.payload['name'] === 'find_drop_off');
      expect(found!.payload['outcome']).toMatchObject({
        kind: 'success',
        value: { located: true, deviceReported: ['acquiring'], kind: 'clothes' },
      });

      // where it is comes first, in words; the copy is offered after them, and done after that
      const replies = await session.replies();
      expect(replies.slice(-2)).toEqual([
        "Take it to Textile bank, Brunswick Centre car park, Bernard Street, WC1N: 200 m away, open any time. If that's closed, Hospice Charity Shop also takes it.",
        "I've copied the address for you.",
      ]);
      const said = path.findIndex(
        (n) => n.kind === 'assistant' && String(n.payload['text']).startsWith('Take it to'),
      );
      const offered = path.findIndex((n) => n.kind === 'elicit' && n.payload['type'] === 'clipboard-write');
      expect(said).toBeGreaterThan(-1);
      expect(said).toBeLessThan(offered);
      expect(session.runner.pending()[0]).toMatchObject({
        type: 'chat',
        message: 'What would you like to give away?',
      });
    } finally {
      await session.runner.close();
    }
  });

  it('reads the things after the place being cleared ("clearing out the garage: …"): none is lost, and the paint goes to a household recycling centre', async () => {
    const session = await openSession(offline(), alwaysDonate());
    try {
      await session.say(
        'clearing out the garage: an old exercise bike, a box of paperbacks and some paint tins',
        happyAnswers,
      );
      expect(session.asked.map((q) => q.message).join('\n')).toMatch(/exercise bike/);
      expect(session.asked.map((q) => q.message).join('\n')).toMatch(/paperbacks/);
      const replies = (await session.replies()).join('\n');
      expect(replies).toContain(
        'The paint tins go to a recycling point that takes them, never the bin: your household recycling centre takes them.',
      );
      expect(replies).not.toMatch(/supermarket/);
    } finally {
      await session.runner.close();
    }
  });

  it('asks nothing about old batteries, however the coach guesses: they go to a recycling point', async () => {
    const session = await openSession(offline(), alwaysDonate());
    try {
      await session.say('where can I take old batteries?', happyAnswers);
      expect(session.asked).toEqual([]);
      expect((await session.replies()).at(-1)).toBe(
        "The old batteries go to a recycling point that takes them, never the bin: most supermarkets have a battery bin, and household recycling centres take them too. Anything else you'd like to give away?",
      );
    } finally {
      await session.runner.close();
    }
  });

  it('asks nothing about old medicines: a pharmacy takes them back, never the bin or a charity', async () => {
    const session = await openSession(offline(), alwaysDonate());
    try {
      await session.say('can I give away my old medicines?', happyAnswers);
      expect(session.asked).toEqual([]);
      expect((await session.replies()).at(-1)).toBe(
        "The old medicines aren't passed on, and they don't go in the bin or down the sink: any pharmacy takes back unused or out-of-date medicines and disposes of them safely. Anything else you'd like to give away?",
      );
    } finally {
      await session.runner.close();
    }
  });

  it('answers "is the cot mattress ok to give?" asked beside other things: not second-hand, for safe sleep', async () => {
    const session = await openSession(offline(), alwaysDonate());
    try {
      await session.say(
        "we're moving house next month and I have a cot, a pram and a load of baby clothes to get rid of. is the cot mattress ok to give?",
        happyAnswers,
      );
      const replies = (await session.replies()).join('\n');
      expect(replies).toContain(
        "The cot mattress isn't passed on second-hand: a baby's mattress should be new, for safe sleep.",
      );
      expect(replies).toMatch(/Take the cot and the pram to /);
      expect(replies).toMatch(/baby clothes/);
    } finally {
      await session.runner.close();
    }
  });

  it('asks nothing more about a broken thing, and says why in its own voice', async () => {
    const coach = coachGuessing((item) => (item.includes('broken') ? 'trash' : 'donate'));
    const session = await openSession(offline(), coach);
    try {
      await session.say('donate a broken umbrella', happyAnswers);
      expect(session.asked).toEqual([]);
      expect((await session.replies()).at(-1)).toBe(
        "The broken umbrella isn't something a charity shop could pass on, so it's for the bin. Anything else you'd like to give away?",
      );
    } finally {
      await session.runner.close();
    }
  });

  it('says what it can without a location when the person keeps theirs', async () => {
    const session = await openSession(offline(), alwaysDonate());
    try {
      await session.say('a box of books', (q) =>
        q.type === 'location' ? { action: 'denied' } : happyAnswers(q),
      );
      expect(session.asked.map((q) => q.type)).toEqual(['form', 'location']);
      const path = await session.path();
      expect(path.some((n) => n.kind === 'notify')).toBe(false);
      expect((await session.replies()).at(-1)).toBe(
        "Without a rough location I can't look nearby. Most charity shops take the books if they are clean and in good condition. Tell me another item whenever you like.",
      );
    } finally {
      await session.runner.close();
    }
  });

  it('names each thing it cannot look up, as one or many', async () => {
    const session = await openSession(offline(), alwaysDonate());
    try {
      await session.say('a winter coat and two lamps', (q) =>
        q.type === 'location' ? { action: 'denied' } : happyAnswers(q),
      );
      expect((await session.replies()).at(-1)).toContain(
        'Most charity shops take the winter coat and the lamps if they are clean and in good condition',
      );
      await session.say('a sofa', (q) => (q.type === 'location' ? { action: 'denied' } : happyAnswers(q)));
      expect((await session.replies()).at(-1)).toContain(
        'Most charity shops take the sofa if it is clean and in good condition',
      );
    } finally {
      await session.runner.close();
    }
  });

  it('says how a collection is had for what the person would rather have collected', async () => {
    const session = await openSession(offline(), alwaysDonate());
    try {
      await session.say('an old sofa and a box of books', (q) =>
        q.type === 'location'
          ? { action: 'denied' }
          : q.type === 'form' && q.message.includes('sofa')
            ? { action: 'accept', content: { condition: 'good', collection: true } }
            : happyAnswers(q),
      );
      expect((await session.replies()).at(-1)).toBe(
        "Without a rough location I can't look nearby. " +
          'Most charity shops take the books if they are clean and in good condition. ' +
          "For the old sofa, which you'd rather have collected: many charities collect for free, so book a collection with one near you. " +
          'A sofa or an armchair is only taken with its fire-safety label still on. ' +
          'Tell me another item whenever you like.',
      );
    } finally {
      await session.runner.close();
    }
  });

  it('lets the person decline the form and stops there', async () => {
    const session = await openSession(offline(), alwaysDonate());
    try {
      await session.say('my old kettle', (q) =>
        q.type === 'form' ? { action: 'decline' } : happyAnswers(q),
      );
      expect(session.asked.map((q) => q.type)).toEqual(['form']);
      expect((await session.replies()).at(-1)).toBe(
        "No problem. Tell me whenever you'd like to find a place for something.",
      );
    } finally {
      await session.runner.close();
    }
  });

  it('sets a form aside when the person types that they are done: it is not asked again', async () => {
    const session = await openSession(offline(), alwaysDonate());
    try {
      let typed = false;
      await session.say('my old kettle', (q) => {
        if (q.type !== 'form' || typed) return happyAnswers(q);
        typed = true;
        return { action: 'type', text: "I'm done" };
      });
      // One form, set aside: no second one for the kettle, and nothing found for it.
      expect(session.asked.map((q) => q.type)).toEqual(['form']);
      const replies = await session.replies();
      expect(replies).toContain('(offline) All right, we stop here.');
      expect(replies.at(-1)).toBe("No problem. Tell me whenever you'd like to find a place for something.");
      const path = await session.path();
      expect(path.filter((n) => n.kind === 'elicit')).toHaveLength(1);
      expect(path.find((n) => n.kind === 'response')?.payload).toMatchObject({
        action: 'other',
        content: { text: "I'm done" },
      });
    } finally {
      await session.runner.close();
    }
  });

  it('asks nothing more in the turn once the person types that they are done at one of its forms', async () => {
    const session = await openSession(offline(), alwaysDonate());
    try {
      await session.say('my old kettle and some books', (q) =>
        q.type === 'form' ? { action: 'type', text: "I'm done" } : happyAnswers(q),
      );
      // The kettle's form, set aside; the books' is not asked, and nothing is looked for.
      expect(session.asked.map((q) => q.message)).toEqual([
        'A little about the old kettle, so I find a place that will take it',
      ]);
      const replies = await session.replies();
      expect(replies).toContain('(offline) All right, we stop here.');
      expect(replies.at(-1)).toBe("No problem. Tell me whenever you'd like to find a place for something.");
      const path = await session.path();
      const described = path
        .filter((n) => n.kind === 'tool_result' && n.payload['name'] === 'describe_donation')
        .map((n) => n.payload['outcome']);
      expect(described).toEqual([
        { kind: 'success', value: { item: 'old kettle', described: false, answer: 'decline' } },
        { kind: 'success', value: { item: 'books', described: false, answer: 'decline' } },
      ]);
      expect(session.runner.pending().map((q) => q.type)).toEqual(['chat']);
    } finally {
      await session.runner.close();
    }
  });

  it('stops at its first question too: "I\'m done" at whether the kettle is in good condition', async () => {
    const session = await openSession(offline(), coachByRuleOfThumb());
    try {
      await session.say('my old kettle and some old books', (q) =>
        q.type === 'confirm' ? { action: 'type', text: "I'm done" } : happyAnswers(q),
      );
      // The kettle's question, set aside; the books' is not asked, nor any form.
      expect(session.asked.map((q) => q.message)).toEqual(['Is the old kettle in good condition?']);
      const replies = await session.replies();
      expect(replies).toContain('(offline) All right, we stop here.');
      expect(session.runner.pending().map((q) => q.type)).toEqual(['chat']);
    } finally {
      await session.runner.close();
    }
  });

  it('finds the reuse centre for furniture, standing beside it', async () => {
    const session = await openSession(offline(), alwaysDonate());
    try {
      await session.say('a wooden chair', (q) =>
        q.type === 'location'
          ? { action: 'accept', content: { lat: 51.5413, lng: -0.1224 } }
          : happyAnswers(q),
      );
      expect(session.asked.at(-1)!.payload).toEqual({ text: 'Camden Reuse Centre, 140 York Way, N1' });
      // standing at it, the reply says so rather than "0 m away"
      expect((await session.replies()).at(-2)).toMatch(
        /^Take it to Camden Reuse Centre, 140 York Way, N1: right by you, open /,
      );
    } finally {
      await session.runner.close();
    }
  });
});
