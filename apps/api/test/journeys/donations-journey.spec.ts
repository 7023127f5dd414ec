import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from '@sweatpants/agent-claude/testing';
import type { AgentList, Conversation, ElicitRequest, NodeAndHead, TreeNode } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { conversation, createConversation, path, until } from '../support/flows';
import { call, register, startApi, type TestApi } from '../support/test-api';
import { connect, record, request, type ClientSocket } from '../support/test-socket';

/**
 * A donation helper session, driven as a person drives it through the public api, once on the
 * offline model and once on Claude (the real SDK against the fake Anthropic server): they pick the
 * helper from the agents list, name a coat, fill the short form, share a rough location (the
 * browser saying it is still finding itself first), watch the directory's lists being checked and
 * let it copy the address. What they should notice: each question arrives in turn, the progress
 * comes while they wait, the reply names the nearest place that takes coats, how far and when it
 * is open, and their words and answers are all on the conversation's path.
 */

/** Near Russell Square, London, where the demo directory's places are. */
const HERE = { lat: 51.5229, lng: -0.1256 };
/** Berlin: 930 km from every place the demo directory knows. */
const BERLIN = { lat: 52.52, lng: 13.405 };
const ADDRESS = 'Textile bank, Brunswick Centre car park, Bernard Street, WC1N';
const TWO_THINGS = 'I have a bag of kids clothes and some old books to give away';

interface Journey {
  api: TestApi;
  token: string;
  socket: ClientSocket;
  c: Conversation;
}

async function open(api: TestApi, name: string): Promise<Journey> {
  const { token } = await register(api, name);
  const agents = await call<AgentList>(api, 'GET', '/api/agents', { token });
  const helper = agents.body.items.find((a) => a.title === 'Donation helper');
  expect(helper).toMatchObject({ name: 'donations', needs: ['location', 'clipboard'] });
  const c = await createConversation(api, token, { agent: helper!.name });
  const socket = await connect(api, token);
  const joined = await request(socket, 'conversation:join', { conversationId: c.id });
  if (!joined.ok) throw new Error(joined.error.message);
  return { api, token, socket, c };
}

/** The question the helper stops on next, once it is not `previous`. */
const nextAsk = async (j: Journey, previous: string): Promise<ElicitRequest> =>
  (
    await until(
      () => conversation(j.api, j.token, j.c.id),
      (now) =>
        now.status === 'waiting' && now.pendingElicit !== null && now.pendingElicit.elicitId !== previous,
    )
  ).pendingElicit!;

const answer = async (j: Journey, q: ElicitRequest, response: { action: string; content?: unknown }) => {
  const ack = await request(j.socket, 'elicit:response', {
    conversationId: j.c.id,
    elicitId: q.elicitId,
    ...response,
  });
  if (!ack.ok) throw new Error(`the answer was refused: ${ack.error.code} ${ack.error.message}`);
};

/** Walks the coat through the helper and returns what the person saw along the way. */
async function giveAwayACoat(j: Journey) {
  const notices = record(j.socket, 'notify');
  const typed = await call<NodeAndHead>(j.api, 'POST', `/api/conversations/${j.c.id}/messages`, {
    token: j.token,
    body: { text: "I'd like to give away my winter coat" },
  });
  expect(typed.status).toBe(201);

  const form = await nextAsk(j, j.c.pendingElicit!.elicitId);
  expect(form).toMatchObject({
    type: 'form',
    message: 'A little about the winter coat, so I find a place that will take it',
    schema: { properties: { condition: { enum: ['like new', 'good', 'worn'] } } },
  });
  // one coat: no bags or boxes to count
  expect(form.schema?.['properties']).not.toHaveProperty('bags');
  // a condition the form does not offer and a field it did not ask are refused, each named, and
  // the form stays asked: nothing is dropped quietly or answered for them
  const misfit = await request(j.socket, 'elicit:response', {
    conversationId: j.c.id,
    elicitId: form.elicitId,
    action: 'accept',
    content: { condition: 'soggy', collection: false, colour: 'red' },
  });
  expect(misfit).toMatchObject({
    ok: false,
    error: {
      code: 'invalid_request',
      details: [
        { field: 'content.condition', message: 'expected one of "like new", "good", "worn"' },
        { field: 'content.colour', message: 'is not an allowed property' },
      ],
    },
  });
  expect((await conversation(j.api, j.token, j.c.id)).pendingElicit?.elicitId).toBe(form.elicitId);
  await answer(j, form, { action: 'accept', content: { condition: 'good', collection: false } });

  const location = await nextAsk(j, form.elicitId);
  expect(location).toMatchObject({ type: 'location', payload: { accuracy: 'low' } });
  // the phone takes a moment to find itself, and says so before it answers
  const progressed = await request(j.socket, 'elicit:progress', {
    conversationId: j.c.id,
    elicitId: location.elicitId,
    payload: { status: 'acquiring' },
  });
  expect(progressed.ok).toBe(true);
  await answer(j, location, { action: 'accept', content: HERE });

  const copy = await nextAsk(j, location.elicitId);
  // where it is was said before the copy was offered
  expect(replies(await path(j.api, j.token, j.c.id)).at(-1)).toMatch(/Bernard Street/);
  expect(copy).toMatchObject({
    type: 'clipboard-write',
    message: 'Copy the address?',
    payload: { text: ADDRESS },
  });
  // the directory's lists were checked while they waited, each one as it was done
  expect(notices.seen.map((n) => [n.message, n.progress, n.total])).toEqual([
    ['Checked the charity shops', 1, 3],
    ['Checked the clothes and textile banks', 2, 3],
    ['Checked the reuse centres', 3, 3],
  ]);
  await answer(j, copy, { action: 'accept', content: { success: true } });

  const chat = await nextAsk(j, copy.elicitId);
  expect(chat).toMatchObject({ type: 'chat', message: 'What would you like to give away?' });
  return { form, location, copy, nodes: await path(j.api, j.token, j.c.id) };
}

const replies = (nodes: readonly TreeNode[]) =>
  nodes
    .filter((n) => n.kind === 'assistant' && n.payload['purpose'] === undefined)
    .map((n) => String(n.payload['text']))
    .filter((t) => t.length > 0);

/**
 * Sends `text` as the web client does (`message:send`), then answers each question the helper
 * asks with `respond` until it waits for the next thing; returns the questions, in order.
 */
async function walk(
  j: Journey,
  text: string,
  respond: (q: ElicitRequest) => { action: string; content?: unknown },
): Promise<ElicitRequest[]> {
  let previous = (await conversation(j.api, j.token, j.c.id)).pendingElicit!.elicitId;
  const sent = await request(j.socket, 'message:send', { conversationId: j.c.id, text });
  if (!sent.ok) throw new Error(sent.error.message);
  const asked: ElicitRequest[] = [];
  for (let q = await nextAsk(j, previous); q.type !== 'chat'; q = await nextAsk(j, previous)) {
    asked.push(q);
    await answer(j, q, respond(q));
    previous = q.elicitId;
  }
  return asked;
}

/**
 * What a person answers on the happy path: good condition, two bags, a drop-off, London. The form
 * is filled as drawn: only the fields it asks.
 */
function happily(q: ElicitRequest): { action: string; content?: unknown } {
  switch (q.type) {
    case 'confirm':
      return { action: 'accept', content: { value: true } };
    case 'form': {
      const asked = Object.keys(q.schema?.['properties'] ?? {});
      const filled = Object.entries({ condition: 'good', bags: 2, collection: false });
      return {
        action: 'accept',
        content: Object.fromEntries(filled.filter(([field]) => asked.includes(field))),
      };
    }
    case 'location':
      return { action: 'accept', content: HERE };
    case 'clipboard-write':
      return { action: 'accept', content: { success: true } };
    default:
      return { action: 'decline' };
  }
}

/** Their words and answers, in the order given, as the path keeps them. */
const given = (nodes: readonly TreeNode[]) =>
  nodes.flatMap((n) =>
    n.kind === 'user'
      ? [String(n.payload['text'])]
      : n.kind === 'response' && n.payload['action'] === 'accept'
        ? [n.payload['content']]
        : [],
  );

describe('a donation helper session, as the person lives it', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('api_donations_journey');
  }, 30_000);
  afterAll(() => db?.drop());

  describe('on the offline model', () => {
    let j: Journey;
    beforeAll(async () => {
      j = await open(await startApi({ DATABASE_URL: db.url }), 'donations-offline');
    }, 30_000);
    afterAll(async () => {
      j?.socket.close();
      await j?.api.close();
    });

    it('takes a coat from the first words to the nearest place that takes it, with the address copied', async () => {
      const { nodes } = await giveAwayACoat(j);
      // where, said before the copy was offered; then that it was copied
      expect(replies(nodes).slice(-2)).toEqual([
        `Take it to ${ADDRESS}: 200 m away, open any time. If that's closed, Hospice Charity Shop also takes it.`,
        "I've copied the address for you.",
      ]);
      expect(given(nodes)).toEqual([
        "I'd like to give away my winter coat",
        { condition: 'good', collection: false },
        HERE,
        { success: true },
      ]);
    }, 30_000);

    it('asks nothing about a broken thing, and says so in its own voice', async () => {
      const before = (await conversation(j.api, j.token, j.c.id)).pendingElicit!.elicitId;
      await call(j.api, 'POST', `/api/conversations/${j.c.id}/messages`, {
        token: j.token,
        body: { text: 'donate a broken umbrella' },
      });
      const next = await nextAsk(j, before);
      expect(next.type).toBe('chat');
      expect(replies(await path(j.api, j.token, j.c.id)).at(-1)).toBe(
        "The broken umbrella isn't something a charity shop could pass on, so it's for the bin. Anything else you'd like to give away?",
      );
    }, 30_000);

    it('takes a sentence as the things in it, asks about each by its name, and places each by name', async () => {
      const two = await open(j.api, 'donations-two-things');
      const asked = await walk(two, TWO_THINGS, happily);
      // old is not broken: the coach's rule of thumb gives old books away, so the form asks their
      // condition, and nothing before it
      expect(asked.map((q) => [q.type, q.message])).toEqual([
        ['form', 'A little about the kids clothes, so I find a place that will take them'],
        ['form', 'A little about the old books, so I find a place that will take them'],
        [
          'location',
          'Share roughly where you are, to find places near you that take the kids clothes and the old books?',
        ],
        ['clipboard-write', 'Copy the addresses?'],
      ]);
      const said = replies(await path(two.api, two.token, two.c.id));
      expect(said.at(-2)).toBe(
        'Take the kids clothes to Textile bank, Brunswick Centre car park, Bernard Street, WC1N: 200 m away, open any time. ' +
          'Take the old books to Hospice Charity Shop, 12 Marchmont Street, WC1N: 200 m away, open Mon–Sat 10:00–17:30.',
      );
      for (const words of [...said, ...asked.map((q) => q.message)]) {
        expect(words).not.toMatch(/coach/i);
        expect(words).not.toContain('I have a bag');
      }
      two.socket.close();
    }, 30_000);

    it('takes a sentence of the move before the things, and a thing said with who outgrew it, as the things in it', async () => {
      const moving = await open(j.api, 'donations-moving');
      const asked = await walk(
        moving,
        "we're moving next month, I have a sofa, a cot my son has outgrown and about 4 boxes of books",
        happily,
      );
      const forms = asked.filter((q) => q.type === 'form');
      expect(forms.map((q) => q.message)).toEqual([
        'A little about the sofa, so I find a place that will take it',
        'A little about the cot, so I find a place that will take it',
        'A little about the books, so I find a place that will take them',
      ]);
      // "about 4 boxes of books" said how many: the books' form does not ask it again
      expect(forms[2]?.schema?.['properties']).not.toHaveProperty('bags');
      const said = replies(await path(moving.api, moving.token, moving.c.id)).join('\n');
      for (const thing of ['the sofa', 'the cot', 'the books']) expect(said).toContain(thing);
      expect(said).not.toMatch(/couldn't tell which things/);
      moving.socket.close();
    }, 30_000);

    it('says plainly it knows no place near someone in Berlin, and calls nothing near', async () => {
      const far = await open(j.api, 'donations-berlin');
      const asked = await walk(far, "I'd like to give away my winter coat", (q) =>
        q.type === 'location' ? { action: 'accept', content: BERLIN } : happily(q),
      );
      expect(asked.map((q) => q.type)).toEqual(['form', 'location']);
      const reply = replies(await path(far.api, far.token, far.c.id)).at(-1)!;
      expect(reply).toMatch(
        /^I don't know any place near you that takes the winter coat: the places I know are in central London, about 930 km from you\. Instead, /,
      );
      expect(reply).not.toMatch(/Take it to|m away/);
      far.socket.close();
    }, 30_000);

    it('answers "I\'d rather it were collected" with the service that collects, not a drop-off', async () => {
      const later = await open(j.api, 'donations-collected');
      await walk(later, "I'd like to give away my winter coat", happily);
      const asked = await walk(later, "I'd rather it were collected", happily);
      // it knows where they are and there is nothing to carry: no question, no address to copy
      expect(asked).toEqual([]);
      expect(replies(await path(later.api, later.token, later.c.id)).at(-1)).toBe(
        "The winter coat can be collected: Hospice Charity Shop home collection picks up from homes within 5 km of 12 Marchmont Street, WC1N, and you're 200 m from there. " +
          "To arrange it: book in the shop or by phone, Mon–Sat 10:00–17:30. Anything else you'd like to give away?",
      );
      later.socket.close();
    }, 30_000);
  });

  describe('on Claude', () => {
    let fake: FakeAnthropic;
    let j: Journey;
    beforeAll(async () => {
      fake = await startFakeAnthropic();
      const api = await startApi({
        DATABASE_URL: db.url,
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: fake.url,
      });
      j = await open(api, 'donations-claude');
    }, 30_000);
    afterAll(async () => {
      j?.socket.close();
      await j?.api.close();
      await fake?.close();
    });

    const call = (name: string, input: { [key: string]: string }): FakeStep => ({
      kind: 'reply',
      content: [{ type: 'tool_use', name, input }],
    });

    it('runs the same tools in the order the model calls them, and the reply is the model’s', async () => {
      fake.script(
        call('check_item', { item: 'winter coat' }),
        call('describe_donation', { item: 'winter coat' }),
        call('find_drop_off', { item: 'winter coat', kind: 'clothes' }),
        // as the helper is told: where it is in words first, the offer to copy after them
        {
          kind: 'reply',
          content: [
            {
              type: 'text',
              text: 'The textile bank on Bernard Street, WC1N takes coats: 200 m away, open any time.',
            },
            { type: 'tool_use', name: 'copy_directions', input: { text: ADDRESS } },
          ],
        },
        {
          kind: 'reply',
          content: [
            { type: 'text', text: 'The textile bank on Bernard Street takes coats; the address is copied.' },
          ],
        },
      );
      const { nodes } = await giveAwayACoat(j);
      expect(replies(nodes).at(-1)).toBe(
        'The textile bank on Bernard Street takes coats; the address is copied.',
      );

      // what the model was told: the helper's four tools, and each result in turn
      const bodies = fake.requests.map(
        (r) => r.body as { system?: unknown; tools?: { name: string }[]; messages: unknown[] },
      );
      // and the same care the offline helper takes, as guidance in its own words
      const system = JSON.stringify(bodies[0]!.system);
      expect(system).toMatch(/Never speak as or for the coach/);
      expect(system).toMatch(/Old is not broken/);
      expect(system).toMatch(/Honour collection/);
      expect(system).toMatch(/Only places within 25 km are near/);
      expect(system).toMatch(/Say where before offering to copy/);
      expect(bodies[0]!.tools!.map((t) => t.name)).toEqual([
        'check_item',
        'describe_donation',
        'find_drop_off',
        'copy_directions',
      ]);
      const results = nodes
        .filter((n) => n.kind === 'tool_result')
        .map((n) => [n.payload['name'], (n.payload['outcome'] as { kind: string }).kind]);
      expect(results).toEqual([
        ['check_item', 'success'],
        ['describe_donation', 'success'],
        ['find_drop_off', 'success'],
        ['copy_directions', 'success'],
      ]);
      // the coach's guess reached the model through check_item
      const checked = nodes.find((n) => n.kind === 'tool_result' && n.payload['name'] === 'check_item')!;
      expect(checked.payload['outcome']).toMatchObject({
        value: {
          item: 'winter coat',
          kind: 'clothes',
          donatable: true,
          coach: { guess: 'place', pile: 'belongs' },
        },
      });
    }, 30_000);
  });
});
