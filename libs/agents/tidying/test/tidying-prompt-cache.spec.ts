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

/** The coach's own replies (not the photo analysis or the extraction of facts). */
const isReply = (c: Call) => c.request.notes?.includes('Session') === true;

describe('a long tidying session on Claude, with prompt caching', () => {
  let fake: FakeAnthropic;
  beforeEach(async () => {
    fake = await startFakeAnthropic();
  });
  afterEach(() => fake.close());

  it('reads the prompt and the history from the cache on every reply once the prefix is cacheable', async () => {
    const replies = (await thirtyTurns(fake)).filter(isReply);
    expect(replies.length).toBeGreaterThanOrEqual(30);
    // The API caches no prefix shorter than 1,024 tokens (Sonnet): the first replies of a session,
    // with the surveying mode's two tools and a short history, are below it. From the first
    // write on, every reply reads all that was written before and writes only what is new.
    const firstWrite = replies.findIndex((c) => (c.usage.cacheWriteTokens ?? 0) > 0);
    expect(firstWrite).toBeGreaterThanOrEqual(0);
    expect(firstWrite).toBeLessThanOrEqual(3);
    const later = replies.slice(firstWrite + 1);
    expect(later.filter((c) => !((c.usage.cacheReadTokens ?? 0) > 0))).toEqual([]);
    for (const c of later)
      expect(c.usage.inputTokens + (c.usage.cacheWriteTokens ?? 0)).toBeLessThan(c.usage.cacheReadTokens!);
  }, 60_000);

  it('sends the photo in exactly one call, the one that analyses it', async () => {
    await thirtyTurns(fake);
    const withImage = fake.requests.filter((r) => r.rawBody.includes('"type":"image"'));
    expect(withImage).toHaveLength(1);
    expect(withImage[0]!.rawBody).toContain('record_photo_analysis');
  }, 60_000);
});
