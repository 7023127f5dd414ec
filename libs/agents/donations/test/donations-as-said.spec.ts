import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import type { ElicitRequest } from '@sweatpants/domain';
import { DONATIONS_OFFLINE_RULES } from '../src';
import {
  BERLIN,
  coachByRuleOfThumb,
  coachGuessing,
  filled,
  happyAnswers,
  openSession,
  type Answer,
  type Session,
} from './donations-session';

/**
 * What a new user found, each as they said it, on the offline model: a sentence of their own
 * naming two things, an old thing that is not a broken one, the helper speaking for the coach, a
 * place 930 km away called near, collection asked for and ignored.
 */

const offline = () => new OfflineModel(DONATIONS_OFFLINE_RULES);
const SENTENCE = 'I have a bag of kids clothes and some old books to give away';

/** What the person saw the helper say, and every question it asked, as one text. */
async function everythingSaid(session: Session): Promise<string> {
  return [...(await session.replies()), ...session.asked.map((q) => q.message)].join('\n');
}

const where = (point: { lat: number; lng: number }) => (q: ElicitRequest) =>
  q.type === 'location' ? ({ action: 'accept', content: point } satisfies Answer) : happyAnswers(q);

async function inSession(coach: ReturnType<typeof coachGuessing>, walk: (s: Session) => Promise<void>) {
  const session = await openSession(offline(), coach);
  try {
    await walk(session);
  } finally {
    await session.runner.close();
  }
}

describe('the donation helper reads what a person says as a person would', () => {
  it('takes "a bag of kids clothes and some old books" as two things, asks about the old books, and places both', () =>
    inSession(coachByRuleOfThumb(), async (session) => {
      await session.say(SENTENCE, happyAnswers);

      expect(session.asked.map((q) => [q.type, q.message])).toEqual([
        ['confirm', 'Are the old books in good condition?'],
        ['form', 'A little about the kids clothes, so I find a place that will take them'],
        ['form', 'A little about the old books, so I find a place that will take them'],
        [
          'location',
          'Share roughly where you are, to find places near you that take the kids clothes and the old books?',
        ],
        ['clipboard-write', 'Copy the addresses?'],
      ]);
      // the books are good, as the person said: their form does not ask their condition again
      const [, clothesForm, booksForm] = session.asked;
      expect(clothesForm?.schema?.['properties']).toHaveProperty('condition');
      expect(booksForm?.schema?.['properties']).not.toHaveProperty('condition');
      // "a bag of kids clothes" said how many bags: only the books' form asks it
      expect(clothesForm?.schema?.['properties']).not.toHaveProperty('bags');
      expect(booksForm?.schema?.['properties']).toHaveProperty('bags');

      const replies = await session.replies();
      expect(replies.slice(-2)).toEqual([
        'Take the kids clothes to Textile bank, Brunswick Centre car park, Bernard Street, WC1N: 200 m away, open any time. ' +
          'Take the old books to Hospice Charity Shop, 12 Marchmont Street, WC1N: 200 m away, open Mon–Sat 10:00–17:30.',
        "I've copied the addresses for you.",
      ]);
      const said = await everythingSaid(session);
      expect(said).not.toMatch(/coach/i);
      expect(said).not.toContain('I have a bag');
    }));

  it('takes "an old kettle that still works" at its word: the old kettle, not asked about its condition', () =>
    inSession(coachByRuleOfThumb(), async (session) => {
      await session.say('I have a bag of kids clothes and an old kettle that still works', happyAnswers);

      const forms = session.asked.filter((q) => q.type === 'form');
      expect(session.asked.filter((q) => q.type === 'confirm')).toEqual([]);
      expect(forms.map((q) => [q.message, Object.keys(q.schema?.['properties'] ?? {})])).toEqual([
        [
          'A little about the kids clothes, so I find a place that will take them',
          ['condition', 'collection'],
        ],
        ['A little about the old kettle, so I find a place that will take it', ['collection']],
      ]);
    }));

  it('takes "a microwave that still works" at its word too, when nothing doubts it: its form asks no condition', () =>
    inSession(coachByRuleOfThumb(), async (session) => {
      await session.say(
        "I've got a kids bike my daughter grew out of and a microwave that still works, where can they go?",
        happyAnswers,
      );

      const forms = session.asked.filter((q) => q.type === 'form');
      expect(forms.map((q) => [q.message, Object.keys(q.schema?.['properties'] ?? {})])).toEqual([
        ['A little about the kids bike, so I find a place that will take it', ['condition', 'collection']],
        ['A little about the microwave, so I find a place that will take it', ['collection']],
      ]);
    }));

  it('asks how many bags of clothes there are, but not of a sofa', () =>
    inSession(coachByRuleOfThumb(), async (session) => {
      await session.say('I want to give away a sofa and some kids clothes', happyAnswers);

      const forms = session.asked.filter((q) => q.type === 'form');
      expect(forms.map((q) => [q.message, Object.keys(q.schema?.['properties'] ?? {})])).toEqual([
        ['A little about the sofa, so I find a place that will take it', ['condition', 'collection']],
        [
          'A little about the kids clothes, so I find a place that will take them',
          ['condition', 'bags', 'collection'],
        ],
      ]);
      expect(await session.replies()).toContainEqual(expect.stringMatching(/^Take the sofa to /));
    }));

  it('asks where the person is once, naming the sofa to collect and the bike to take, as each form said', () =>
    inSession(coachByRuleOfThumb(), async (session) => {
      await session.say('I want to give away a sofa and a bike', (q) =>
        q.type === 'form'
          ? filled(q, { condition: 'good', collection: q.message.includes('sofa'), bags: 1 })
          : happyAnswers(q),
      );

      expect(session.asked.filter((q) => q.type === 'location').map((q) => q.message)).toEqual([
        'Share roughly where you are, to find services near you that collect the sofa, and places that take the bike?',
      ]);
    }));

  it('asks the tidying coach about each thing by its own name', async () => {
    const coach = coachByRuleOfThumb();
    await inSession(coach, (session) => session.say(SENTENCE, happyAnswers));
    expect(coach.asked).toEqual(['kids clothes', 'old books']);
  });

  it('takes the person at their word when the old books are worn out, and still places the clothes', () =>
    inSession(coachByRuleOfThumb(), async (session) => {
      await session.say(SENTENCE, (q) =>
        q.type === 'confirm' ? { action: 'accept', content: { value: false } } : happyAnswers(q),
      );
      expect(session.asked.map((q) => q.type)).toEqual(['confirm', 'form', 'location', 'clipboard-write']);
      const replies = await session.replies();
      expect(replies).toContain(
        'Then the old books are best taken to recycling: charity shops can only pass on things in good condition.',
      );
      expect(replies.at(-2)).toBe(
        "Take them to Textile bank, Brunswick Centre car park, Bernard Street, WC1N: 200 m away, open any time. If that's closed, Hospice Charity Shop also takes them.",
      );
      expect(await everythingSaid(session)).not.toMatch(/coach/i);
    }));

  it('sends clothes the form says are worn to the textile bank, not to a charity shop that resells', () =>
    inSession(coachByRuleOfThumb(), async (session) => {
      await session.say('two bags of clothes', (q) =>
        q.type === 'form' ? filled(q, { condition: 'worn', collection: false }) : happyAnswers(q),
      );
      const replies = await session.replies();
      expect(replies.join('\n')).toMatch(/^Take them to Textile bank, Brunswick Centre car park/m);
      expect(replies.join('\n')).not.toMatch(/Hospice Charity Shop/);
    }));

  it('says plainly it knows no place near someone in Berlin, and what they could do instead', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        await session.say("I'd like to give away my winter coat", where(BERLIN));
        expect(session.asked.map((q) => q.type)).toEqual(['form', 'location']);
        const reply = (await session.replies()).at(-1)!;
        expect(reply).toBe(
          "I don't know any place near you that takes the winter coat: the places I know are in central London, about 930 km from you. " +
            "Instead, a charity shop, clothes bank or reuse centre near you may well take it: your local council's website lists where to give things away. " +
            "Anything else you'd like to give away?",
        );
        expect(reply).not.toMatch(/Take it to/);
      },
    ));

  it('names no clothes bank for a bike and a microwave it knows no place for', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        await session.say('a kids bike and a microwave that still works', where(BERLIN));
        const reply = (await session.replies()).at(-1)!;
        expect(reply).toMatch(/Instead, a charity shop or reuse centre near you may well take them/);
        expect(reply).not.toMatch(/clothes bank/);
      },
    ));

  it('honours collection ticked on the form: a service that collects, not a place to take it', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        await session.say('a box of books', (q) =>
          q.type === 'form' ? filled(q, { condition: 'good', bags: 1, collection: true }) : happyAnswers(q),
        );
        // nothing to carry anywhere, so no address to copy
        expect(session.asked.map((q) => q.type)).toEqual(['form', 'location']);
        const path = await session.path();
        expect(path.filter((n) => n.kind === 'notify').map((n) => n.payload['message'])).toEqual([
          'Checked the collection services',
        ]);
        expect((await session.replies()).at(-1)).toBe(
          "The books can be collected: Hospice Charity Shop home collection picks up from homes within 5 km of 12 Marchmont Street, WC1N, and you're 200 m from there. " +
            "To arrange it: book in the shop or by phone, Mon–Sat 10:00–17:30. Anything else you'd like to give away?",
        );
      },
    ));

  it('answers "I\'d rather it were collected" with collection for what it just placed, without asking where again', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        await session.say("I'd like to give away my winter coat", happyAnswers);
        const before = session.asked.length;
        await session.say("I'd rather it were collected", happyAnswers);
        expect(session.asked.slice(before)).toEqual([]);
        expect((await session.replies()).at(-1)).toMatch(
          /^The winter coat can be collected: Hospice Charity Shop home collection picks up from homes within 5 km/,
        );
      },
    ));

  it('honours collection typed at the offer to copy a drop-off address', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        let typed = false;
        await session.say("I'd like to give away my winter coat", (q) => {
          if (q.type !== 'clipboard-write' || typed) return happyAnswers(q);
          typed = true;
          return { action: 'type', text: "I'd rather it were collected" };
        });
        expect(await session.replies()).toContainEqual(
          expect.stringMatching(/^The winter coat can be collected: Hospice Charity Shop home collection/),
        );
        // where they are was asked once, for both searches
        expect(session.asked.filter((q) => q.type === 'location')).toHaveLength(1);
      },
    ));

  it('takes "I\'d rather not share it" typed at the location as keeping it: no search, and says what it can', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        await session.say('a winter coat', (q) =>
          q.type === 'location'
            ? { action: 'type', text: "I'd rather not share it, I'm near Russell Square" }
            : happyAnswers(q),
        );
        expect(session.asked.map((q) => q.type)).toEqual(['form', 'location']);
        const replies = await session.replies();
        expect(replies).toContain('(offline) All right, I leave that question.');
        expect(replies.at(-1)).toMatch(/^Without a rough location I can't look nearby\./);
        expect(session.runner.pending().map((q) => q.type)).toEqual(['chat']);
      },
    ));

  it('takes "actually I\'ll keep the cot" typed at the cot\'s form as leaving it: the sofa is still placed, the cot not', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        await session.say("I've got a sofa and a cot to give away", (q) =>
          q.type === 'form' && q.message.includes('the cot')
            ? { action: 'type', text: "actually I'll keep the cot, my sister might want it" }
            : happyAnswers(q),
        );
        expect(session.asked.filter((q) => q.type === 'form').map((q) => q.message)).toEqual([
          'A little about the sofa, so I find a place that will take it',
          'A little about the cot, so I find a place that will take it',
        ]);
        const replies = await session.replies();
        expect(replies).toContain('(offline) All right, you keep the cot; I leave that question.');
        expect(replies.join('\n')).not.toMatch(/can't fill the form/);
        // where they are is asked for the sofa alone, and the sofa is placed
        expect(session.asked.filter((q) => q.type === 'location').map((q) => q.message)).toEqual([
          'Share roughly where you are, to find places near you that take the sofa?',
        ]);
        expect(replies).toContainEqual(expect.stringMatching(/^Take (?:it|the sofa) to /));
        expect(replies.join('\n')).not.toMatch(/Take the cot/);
      },
    ));

  it('takes "never mind the lamp" typed at the lamp\'s form as leaving the lamp alone, not as stopping: the sofa is still placed', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        await session.say('I want to give away a sofa and a lamp', (q) =>
          q.type === 'form' && q.message.includes('the lamp')
            ? { action: 'type', text: 'never mind the lamp' }
            : happyAnswers(q),
        );
        const replies = await session.replies();
        expect(replies).toContain('(offline) All right, we leave the lamp.');
        expect(replies).not.toContain('(offline) All right, we stop here.');
        expect(session.asked.filter((q) => q.type === 'location').map((q) => q.message)).toEqual([
          'Share roughly where you are, to find places near you that take the sofa?',
        ]);
        expect(replies).toContainEqual(expect.stringMatching(/^Take (?:it|the sofa) to /));
      },
    ));

  it('takes words typed at the form that fill it in as its answer: the form is not asked again', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        const typed = ["they're in good condition, just one box", "like new, and I'd like it picked up"];
        await session.say('I have a box of kids clothes, mostly size 4-6, and a high chair', (q) => {
          const text = q.type === 'form' ? typed.shift() : undefined;
          return text ? { action: 'type', text } : happyAnswers(q);
        });
        expect(session.asked.filter((q) => q.type === 'form').map((q) => q.message)).toEqual([
          'A little about the kids clothes, so I find a place that will take them',
          'A little about the high chair, so I find a place that will take it',
        ]);
        const said = await everythingSaid(session);
        expect(said).not.toMatch(/size 4-6/);
        expect(said).not.toMatch(/can't fill the form/);
        // the walk goes on from the forms as from taps: where they are (collection for the one
        // thing it was asked of), then where each thing goes
        expect(session.asked.filter((q) => q.type === 'location').map((q) => q.message)).toEqual([
          'Share roughly where you are, to find services near you that collect the high chair, and places that take the kids clothes?',
        ]);
        expect(await session.replies()).toContainEqual(
          expect.stringMatching(/\bkids clothes\b.*\bhigh chair\b|\bhigh chair\b.*\bkids clothes\b/s),
        );
      },
    ));

  it('names what words typed at the form left out, and asks it again', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        let typed = false;
        await session.say('some kids clothes', (q) => {
          if (q.type !== 'form' || typed) return happyAnswers(q);
          typed = true;
          return { action: 'type', text: "they're in good condition" };
        });
        expect(await session.replies()).toContain(
          '(offline) From your words I could not tell: How many bags or boxes? Fill in the form below and submit it, or tap “Skip this” to go on without it.',
        );
        expect(session.asked.filter((q) => q.type === 'form')).toHaveLength(2);
      },
    ));

  it('takes "it\'s fine, only used for one kid. can someone pick it up?" typed at the form as its answer: good, and collected', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        const typed = ["it's fine, only used for one kid. can someone pick it up?"];
        await session.say("I've got a double buggy", (q) => {
          const text = q.type === 'form' ? typed.shift() : undefined;
          return text ? { action: 'type', text } : happyAnswers(q);
        });
        expect(session.asked.filter((q) => q.type === 'form')).toHaveLength(1);
        expect(session.asked.find((q) => q.type === 'location')?.message).toBe(
          'Share roughly where you are, to find services near you that collect the double buggy?',
        );
      },
    ));

  it('names what "can someone pick it up?" typed at the form left out, rather than saying it cannot answer', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        let typed = false;
        await session.say("I've got a double buggy", (q) => {
          if (q.type !== 'form' || typed) return happyAnswers(q);
          typed = true;
          return { action: 'type', text: 'can someone pick it up?' };
        });
        expect(await session.replies()).toContain(
          '(offline) From your words I could not tell: What condition is it in? Fill in the form below and submit it, or tap “Skip this” to go on without it.',
        );
      },
    ));

  it('says what offline cannot do with words typed at the form that do not fill it, and how to answer it, then asks it again', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        const typed = ['one of the cushions is torn', 'what does collected mean?'];
        await session.say('an old sofa', (q) => {
          const text = q.type === 'form' ? typed.shift() : undefined;
          return text ? { action: 'type', text } : happyAnswers(q);
        });
        const how = 'Fill in the form below and submit it, or tap “Skip this” to go on without it.';
        const replies = await session.replies();
        expect(replies).toContain(`(offline) Offline I can't fill the form in from your words. ${how}`);
        expect(replies).toContain(`(offline) I can't answer that offline. ${how}`);
        expect(session.asked.filter((q) => q.type === 'form')).toHaveLength(3);
      },
    ));

  it('takes the town typed at the location ("I\'m in Camden Town") as where they are: the search runs near it', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        await session.say('a winter coat', (q) =>
          q.type === 'location' ? { action: 'type', text: "I'm in Camden Town" } : happyAnswers(q),
        );
        // asked once, answered by the words
        expect(session.asked.map((q) => q.type)).toEqual(['form', 'location', 'clipboard-write']);
        expect((await session.replies()).join('\n')).toMatch(
          /Take it to Camden Reuse Centre, 140 York Way, N1: 1\.5 km away/,
        );
      },
    ));

  it('takes the town said with the things ("a winter coat, I\'m in Camden Town") as where they are: no location asked', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        await session.say("I'd like to give away a winter coat, I'm in Camden Town", happyAnswers);
        expect(session.asked.map((q) => q.type)).toEqual(['form', 'clipboard-write']);
        expect((await session.replies()).join('\n')).toMatch(
          /Take it to Camden Reuse Centre, 140 York Way, N1: 1\.5 km away/,
        );
      },
    ));

  it('takes "im in leeds" typed after the things, as a phone types it, as where they are: no thing of that name, no location asked', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        await session.say('hi! got a box of kids books and a scooter, im in leeds', happyAnswers);
        expect(session.asked.map((q) => q.type)).toEqual(['form', 'form']);
        expect(session.asked.map((q) => q.message).join('\n')).not.toMatch(/leeds/i);
        expect((await session.replies()).at(-1)).toMatch(
          /^I don't know any place near you that takes the kids books or the scooter: the places I know are in central London, about \d+ km from you\./,
        );
      },
    ));

  it('takes "we\'re moving house next month and have a sofa bed and a load of kitchen stuff" as both things: the sofa bed is not dropped', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        await session.say(
          "we're moving house next month and have a sofa bed and a load of kitchen stuff to get rid of, we're in Leeds",
          happyAnswers,
        );
        expect(session.asked.map((q) => q.message)).toEqual([
          'A little about the sofa bed, so I find a place that will take it',
          'A little about the kitchen stuff, so I find a place that will take it',
        ]);
        expect((await session.replies()).at(-1)).toMatch(/takes the sofa bed or the kitchen stuff/);
      },
    ));

  it('meets "my nan passed away and we need to clear her flat" with sympathy first, and takes the furniture and ornaments as the things (it asked about a thing called "nan passed away")', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        await session.say(
          "my nan passed away and we need to clear her flat, there's a lot of furniture and ornaments",
          happyAnswers,
        );
        expect((await session.replies())[0]).toBe("I'm sorry for your loss.");
        const asked = session.asked.map((q) => q.message).join('\n');
        expect(asked).toMatch(/A little about the furniture,/);
        expect(asked).toMatch(/A little about the ornaments,/);
        expect(asked).not.toMatch(/nan|lot of/);
      },
    ));

  it('asks where they are when the town said with the things is several ("Reading")', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        await session.say("I'd like to give away a winter coat, I'm in Reading", happyAnswers);
        expect(session.asked.map((q) => q.type)).toContain('location');
      },
    ));

  it('asks which one when the town typed at the location is several ("Reading"), then takes "Reading, UK"', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        // as a phone types it
        const typed = ['reading', 'Reading, UK'];
        await session.say('a winter coat', (q) => {
          const text = q.type === 'location' ? typed.shift() : undefined;
          return text ? { action: 'type', text } : happyAnswers(q);
        });
        const replies = await session.replies();
        expect(replies).toContain(
          '(offline) I know more than one Reading (in the United Kingdom and the United States): say which with its country or a city near it, as in “Reading, United Kingdom”. Type the town you are in (“Leeds”), tap “Share my location”, or “Skip this” and I will say what I can without it.',
        );
        expect(session.asked.filter((q) => q.type === 'location')).toHaveLength(2);
        // Reading is 57 km from the places the demo directory knows, in central London
        expect(replies.at(-1)).toMatch(
          /^I don't know any place near you that takes the winter coat: the places I know are in central London, about 5\d km from you\./,
        );
      },
    ));

  it('answers a place typed at the location with how to share it, and asks again: the tap then finds places', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        let typed = false;
        await session.say('a winter coat', (q) => {
          if (q.type !== 'location' || typed) return happyAnswers(q);
          typed = true;
          return { action: 'type', text: "I'm near Russell Square" };
        });
        const [form, first, again] = session.asked;
        expect(form?.type).toBe('form');
        expect(again).toMatchObject({ type: 'location', resumes: first?.elicitId });
        const replies = await session.replies();
        expect(replies).toContain(
          '(offline) Offline I know towns and cities by their names, and those words name none I know. Type the town you are in (“Leeds”), tap “Share my location”, or “Skip this” and I will say what I can without it.',
        );
        expect(replies).toContainEqual(expect.stringMatching(/^Take it to Textile bank/));
      },
    ));

  it('says plainly it knows no collection near someone far from every service', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        await session.say('a wooden chair, could someone pick it up?', where(BERLIN));
        const [form, location] = session.asked;
        // they already said: the form does not ask again, and the location is asked for collection
        expect(form?.schema?.['properties']).not.toHaveProperty('collection');
        expect(location!.message).toBe(
          'Share roughly where you are, to find services near you that collect the wooden chair?',
        );
        expect((await session.replies()).at(-1)).toMatch(
          /^I don't know of any collection service near you for the wooden chair: the places I know are in central London, about 930 km from you\. Instead, you could ring a charity shop near you/,
        );
      },
    ));

  it.each(['Thanks!', 'thanks, bye', "brilliant, that's all thanks!", 'amazing thank you'])(
    'takes %j as thanks, not as things to give away',
    (text) =>
      inSession(
        coachGuessing(() => 'donate'),
        async (session) => {
          await session.say(text, happyAnswers);
          expect(session.asked).toEqual([]);
          expect((await session.replies()).at(-1)).toBe(
            "You're welcome. Tell me whenever there's something else you'd like to give away.",
          );
        },
      ),
  );

  it('takes "an old microwave that doesn\'t heat anymore" at its word: not asked its condition, and sent to a recycling centre, never the bin', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        await session.say(
          "is there anywhere that takes broken electricals? I have an old microwave that doesn't heat anymore",
          happyAnswers,
        );
        expect(session.asked).toEqual([]);
        const said = (await session.replies()).at(-1);
        expect(said).toMatch(
          /^The old microwave goes to a recycling point that takes it, never the bin: household recycling centres take it with the small electricals/,
        );
        expect(said).not.toMatch(/charity shop/);
      },
    ));

  it('sends a broken lamp to a recycling centre with the electricals, where the coach would bin it', () =>
    inSession(
      coachGuessing(() => 'trash'),
      async (session) => {
        await session.say('I have a broken lamp and a broken umbrella', happyAnswers);
        const said = (await session.replies()).at(-1) ?? '';
        expect(said).toMatch(/The broken lamp goes to a recycling point that takes it, never the bin/);
        expect(said).toMatch(
          /The broken umbrella isn't something a charity shop could pass on, so it's for the bin\./,
        );
      },
    ));

  it('says a high chair missing its strap is not safe for another child, even when the coach would give it, and still places the clothes', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        await session.say('a high chair with a missing strap and a box of baby clothes', happyAnswers);
        // the high chair is never offered a form or a place: only the clothes are
        expect(session.asked.filter((q) => q.type === 'form').map((q) => q.message)).toEqual([
          'A little about the baby clothes, so I find a place that will take them',
        ]);
        const replies = await session.replies();
        expect(replies.join('\n')).toContain(
          "The high chair with a missing strap isn't safe for another child as it is, so no charity can pass it on. " +
            'Mended, it could be given; otherwise a household recycling centre takes it.',
        );
        // the clothes, the one thing asked about since, are placed
        expect(replies.at(-2)).toMatch(/^Take them to Textile bank/);
      },
    ));

  it('asks what the things are when a message names none, instead of quoting it as one', () =>
    inSession(
      coachGuessing(() => 'donate'),
      async (session) => {
        await session.say('hello, what can you do?', happyAnswers);
        expect(session.asked).toEqual([]);
        expect((await session.replies()).at(-1)).toBe(
          "I couldn't tell which things you mean. What would you like to give away? For example: a winter coat, some books.",
        );
      },
    ));
});
