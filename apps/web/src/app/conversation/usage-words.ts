import type { ConversationUsage } from '@sweatpants/domain';

/** English words, so English digit grouping, whatever the browser's locale. */
const NUMBER = new Intl.NumberFormat('en-US');

/**
 * What a conversation's model calls cost, in plain words for admins: "12 model calls · 8,431 tokens
 * in (6,020 read from the cache, 1,200 written to it) · 640 out". The tokens in are all the input
 * the model was sent, cached or not (the api counts fresh input apart from the cache's); the cache
 * part is left out when nothing went through the cache, as on the offline model.
 */
export function usageWords(usage: ConversationUsage): string {
  if (usage.calls === 0) return 'No model calls yet';
  const { inputTokens, cacheReadTokens: read, cacheWriteTokens: written, outputTokens } = usage;
  const cache = [
    ...(read > 0 ? [`${number(read)} read from the cache`] : []),
    ...(written > 0 ? [`${number(written)} written to ${read > 0 ? 'it' : 'the cache'}`] : []),
  ];
  const into = count(inputTokens + read + written, 'token in', 'tokens in');
  return [
    count(usage.calls, 'model call', 'model calls'),
    cache.length > 0 ? `${into} (${cache.join(', ')})` : into,
    `${number(outputTokens)} out`,
  ].join(' · ');
}

function count(n: number, one: string, many: string): string {
  return `${number(n)} ${n === 1 ? one : many}`;
}

function number(n: number): string {
  return NUMBER.format(n);
}
