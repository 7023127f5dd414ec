import type { ModelUsage } from '@sweatpants/agent-runtime';

/** What one million tokens of each kind cost on a model, in US dollars. */
export interface ModelPrices {
  /** input billed in full */
  input: number;
  output: number;
  /** input written to the 5-minute prompt cache: 1.25× input */
  cacheWrite: number;
  /** input read from the prompt cache: 0.1× input */
  cacheRead: number;
}

/** Which row of the table priced a model: its own, its family's, or the dearest (unknown model). */
export interface PricedModel {
  prices: ModelPrices;
  /** the prefix that matched, `<family> family`, or null when the model is unknown */
  matched: string | null;
}

function perMillion(input: number, output: number): ModelPrices {
  return { input, output, cacheWrite: input * 1.25, cacheRead: input * 0.1 };
}

/**
 * Claude's published prices (https://docs.claude.com/en/docs/about-claude/pricing), most specific
 * prefix first: the older generations that cost differently from their family today. Long-context
 * premiums (beyond 200k input tokens) are not priced: the product's turns stay far below them.
 */
const BY_PREFIX: readonly (readonly [string, ModelPrices])[] = [
  ['claude-opus-4-1', perMillion(15, 75)],
  ['claude-opus-4-2025', perMillion(15, 75)],
  ['claude-opus-4-0', perMillion(15, 75)],
  ['claude-3-opus', perMillion(15, 75)],
  ['claude-3-5-haiku', perMillion(0.8, 4)],
  ['claude-3-haiku', perMillion(0.25, 1.25)],
];

/** Each family at its current generation's price (Opus 4.5, Sonnet 4.x, Haiku 4.5). */
const BY_FAMILY: readonly (readonly [string, ModelPrices])[] = [
  ['opus', perMillion(5, 25)],
  ['sonnet', perMillion(3, 15)],
  ['haiku', perMillion(1, 5)],
];

/** What a model nobody priced is billed at: the dearest row, so an unknown model never looks free. */
export const UNKNOWN_MODEL_PRICES: ModelPrices = perMillion(15, 75);

/** The offline model's name (the runtime's OfflineModel): it answers in-process and costs nothing. */
const OFFLINE = 'offline';

/**
 * The prices `model` (a Claude model id, as a reply names it) is billed at: by the longest known
 * prefix, else by its family's name in the id, else the dearest prices (`matched: null`).
 *
 * @example
 * claudePrices('claude-haiku-4-5-20251001'); // { prices: { input: 1, output: 5, … }, matched: 'haiku family' }
 */
export function claudePrices(model: string): PricedModel {
  if (model === OFFLINE) return { prices: perMillion(0, 0), matched: OFFLINE };
  const prefixed = BY_PREFIX.find(([prefix]) => model.startsWith(prefix));
  if (prefixed) return { prices: prefixed[1], matched: prefixed[0] };
  const family = BY_FAMILY.find(([name]) => model.startsWith('claude-') && model.includes(name));
  if (family) return { prices: family[1], matched: `${family[0]} family` };
  return { prices: UNKNOWN_MODEL_PRICES, matched: null };
}

/** Said once per unknown model id, so a typo'd ANTHROPIC_MODEL is noticed but not logged per call. */
const warned = new Set<string>();

/**
 * What one call cost in dollars, from the usage the assistant node records: fresh input, cache
 * writes, cache reads and output, each at its price. The offline model costs 0; a model the table
 * does not know is billed at the dearest prices and `warn` is told once (console.warn by default).
 *
 * @example
 * costOf('claude-sonnet-4-5', { inputTokens: 1_000_000, outputTokens: 0 }); // 3
 */
export function costOf(
  model: string,
  usage: ModelUsage,
  warn: (message: string) => void = (message) => console.warn(message),
): number {
  const { prices, matched } = claudePrices(model);
  if (matched === null && !warned.has(model)) {
    warned.add(model);
    warn(
      `no published price known for model '${model}': billing it at the dearest prices ($15/$75 per million)`,
    );
  }
  const dollars =
    usage.inputTokens * prices.input +
    (usage.cacheWriteTokens ?? 0) * prices.cacheWrite +
    (usage.cacheReadTokens ?? 0) * prices.cacheRead +
    usage.outputTokens * prices.output;
  return dollars / 1_000_000;
}
