import { ClaudeModel, claudeConfig } from '@sweatpants/agent-claude';
import { offlineResponder, startFakeAnthropic, type FakeAnthropic } from '@sweatpants/agent-claude/testing';
import type { ModelRequest, ModelUsage } from '@sweatpants/agent-runtime';
import type { Model } from '@sweatpants/agent-runtime/host';
import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import { TIDYING_OFFLINE_RULES } from '../src';
import { openSession, PHOTO, photoBytes, tapFirst } from './tidying-session-harness';

/** What each item message names, cycled: a session of many short turns. */
const ITEMS = [
  'a mug',
  'some papers',
  'a phone charger',
  'a sweater',
  'a book',
  'a bottle',
  'a pen',
  'a toy car',
];

interface Call {
  request: ModelRequest;
  usage: ModelUsage;
}

/**
 * A 30-turn tidying session on the real SDK and the real adapter against the fake Anthropic
 * server, which bills by the prompt cache's rules and answers each request as the offline coach
 * would: the photo first, then what the space is for, then items.
 */
async function thirtyTurns(fake: FakeAnthropic): Promise<Call[]> {
  fake.respond(offlineResponder(new OfflineModel(TIDYING_OFFLINE_RULES)));
  const claude = new ClaudeModel(
    claudeConfig({
      apiKey: 'test-key',
      baseURL: fake.url,
      model: 'claude-sonnet-4-6',
      retry: { baseDelayMs: 1, maxDelayMs: 5 },
    }),
    { photoBytes },
  );
  const calls: Call[] = [];
  const model: Model = {
    kind: claude.kind,
    name: claude.name,
    async complete(request, options) {
      const reply = await claude.complete(request, options);
      if (reply.ok) calls.push({ request, usage: reply.value.usage });
      return reply;
    },
  };
  const s = await openSession(model);
  try {
    await s.say('My desk is covered in mugs, papers and a lamp', tapFirst, [PHOTO]);
    for (let turn = 2; turn <= 30; turn++) await s.say(ITEMS[turn % ITEMS.length]!, tapFirst);
  } finally {
    await s.runner.close();
  }
  return calls;
}

/** Whether a call reads the person's words (and readies a named item's card). */
const isReading = (c: Call) => c.request.tools.some((t) => t.name === 'record_extraction');
/** Whether a call is one of the coach's own replies. */
const isReply = (c: Call) => c.request.notes?.includes('Session') === true;

describe('a long tidying session on Claude, with prompt caching', () => {
  let fake: FakeAnthropic;
  beforeEach(async () => {
    fake = await startFakeAnthropic();
  });
  afterEach(() => fake.close());

  it('reads the prompt and the history from the cache on every call once the prefix is cacheable', async () => {
    const calls = await thirtyTurns(fake);
    // One call a turn: a named item's card comes with the reading of the words, an item sorted
    // already and a tap are answered by the coach itself; replies are the few turns left.
    const readings = calls.filter(isReading);
    expect(readings.length).toBeGreaterThanOrEqual(29);
    expect(calls.filter(isReply).length).toBeLessThan(8);
    expect(calls.length).toBeLessThanOrEqual(30 * 1.3);
    // The reading's instructions are past the API's 1,024-token minimum: written by the first
    // reading, read by every later one, each writing nothing new but its message.
    expect(readings[0]!.usage.cacheWriteTokens).toBeGreaterThan(1024);
    for (const c of readings.slice(1)) {
      expect(c.usage.cacheReadTokens).toBeGreaterThan(1024);
      expect(c.usage.inputTokens + (c.usage.cacheWriteTokens ?? 0)).toBeLessThan(c.usage.cacheReadTokens!);
    }
  }, 60_000);

  it('sends the photo in exactly one call, the one that analyses it', async () => {
    await thirtyTurns(fake);
    const withImage = fake.requests.filter((r) => r.rawBody.includes('"type":"image"'));
    expect(withImage).toHaveLength(1);
    expect(withImage[0]!.rawBody).toContain('record_photo_analysis');
  }, 60_000);
});
