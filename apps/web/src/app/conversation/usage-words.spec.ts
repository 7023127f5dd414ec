import type { ConversationUsage } from '@sweatpants/domain';

import { usageWords } from './usage-words';

const usage = (over: Partial<ConversationUsage> = {}): ConversationUsage => ({
  calls: 12,
  inputTokens: 1_211,
  cacheWriteTokens: 1_200,
  cacheReadTokens: 6_020,
  outputTokens: 640,
  ...over,
});

describe('a conversation’s model usage in words', () => {
  it('says calls, all the tokens in with what the cache read and wrote of them, and the tokens out', () => {
    // 1,211 billed in full + 6,020 read from the cache + 1,200 written to it = 8,431 in
    expect(usageWords(usage())).toBe(
      '12 model calls · 8,431 tokens in (6,020 read from the cache, 1,200 written to it) · 640 out',
    );
  });

  it('leaves the cache out when nothing went through it, as on the offline model', () => {
    expect(usageWords(usage({ cacheReadTokens: 0, cacheWriteTokens: 0 }))).toBe(
      '12 model calls · 1,211 tokens in · 640 out',
    );
  });

  it('names only the side of the cache that was used', () => {
    expect(usageWords(usage({ cacheWriteTokens: 0 }))).toBe(
      '12 model calls · 7,231 tokens in (6,020 read from the cache) · 640 out',
    );
    expect(usageWords(usage({ cacheReadTokens: 0 }))).toBe(
      '12 model calls · 2,411 tokens in (1,200 written to the cache) · 640 out',
    );
  });

  it('groups thousands and says one call and one token as one', () => {
    expect(
      usageWords({ calls: 1, inputTokens: 1, cacheWriteTokens: 0, cacheReadTokens: 0, outputTokens: 1 }),
    ).toBe('1 model call · 1 token in · 1 out');
    expect(usageWords(usage({ calls: 1_204, inputTokens: 12_345_678, outputTokens: 1_000 }))).toBe(
      '1,204 model calls · 12,352,898 tokens in (6,020 read from the cache, 1,200 written to it) · 1,000 out',
    );
  });

  it('says so when no model call has been made', () => {
    expect(
      usageWords({ calls: 0, inputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0, outputTokens: 0 }),
    ).toBe('No model calls yet');
  });
});
