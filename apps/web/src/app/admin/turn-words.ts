import type { TurnSpan, TurnSpanKind, TurnTokens, TurnWaterfall } from '@sweatpants/domain';

/** English words, so English digit grouping, whatever the browser's locale. */
const NUMBER = new Intl.NumberFormat('en-US');

/** What each kind of bar is, in words (the legend and each bar's text). */
export const SPAN_KIND_WORDS: Record<TurnSpanKind, string> = {
  model: 'Model call',
  tool: 'Tool',
  wait: 'Waiting for the person',
  write: 'Stored',
};

/**
 * A duration as a person reads it: "45 ms", "0.61 s", "12 s", "2 min 5 s".
 *
 * @example
 * durationWords(610); // '0.61 s'
 */
export function durationWords(ms: number): string {
  if (ms < 100) return `${Math.round(ms)} ms`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return seconds > 0 ? `${minutes} min ${seconds} s` : `${minutes} min`;
}

/**
 * Dollars to the cent, or to four significant digits below a cent (a turn costs fractions of one).
 *
 * @example
 * dollarWords(0.008625); // '$0.008625'
 */
export function dollarWords(usd: number): string {
  if (usd === 0) return '$0';
  if (usd >= 0.01) return `$${usd.toFixed(2)}`;
  return `$${Number(usd.toPrecision(4))}`;
}

/** All the tokens in (fresh, read from the cache and written to it) and out. */
export function tokenWords(tokens: TurnTokens): string {
  const into = tokens.inputTokens + tokens.cacheReadTokens + tokens.cacheWriteTokens;
  const cached = tokens.cacheReadTokens > 0 ? ` (${NUMBER.format(tokens.cacheReadTokens)} cached)` : '';
  return `${NUMBER.format(into)} tokens in${cached} · ${NUMBER.format(tokens.outputTokens)} out`;
}

/** A turn's figures on one line: "2.10 s · 2 model calls · 6,540 tokens in · 210 out · $0.0086". */
export function turnFigures(turn: TurnWaterfall): string {
  const calls = `${turn.modelCalls} model call${turn.modelCalls === 1 ? '' : 's'}`;
  return [
    durationWords(turn.durationMs),
    calls,
    ...(turn.modelCalls > 0 ? [tokenWords(turn.tokens), dollarWords(turn.costUsd)] : []),
  ].join(' · ');
}

/** A bar's timing and figures: "0.60 s, from 0.01 s · 6,300 tokens in (5,000 cached) · 200 out · $0.0086". */
export function spanFigures(span: TurnSpan): string {
  const from = span.estimated
    ? `, from about ${durationWords(span.startMs)}`
    : `, from ${durationWords(span.startMs)}`;
  return [
    `${durationWords(span.durationMs)}${from}`,
    ...(span.tokens ? [tokenWords(span.tokens)] : []),
    ...(span.costUsd !== undefined ? [dollarWords(span.costUsd)] : []),
  ].join(' · ');
}

/**
 * What a turn cost, short: its dollars, or where its calls cost nothing (the offline model) the
 * tokens that made it the heaviest.
 *
 * @example
 * costWords(turn); // '$0.0086', or '1,240 tokens'
 */
export function costWords(turn: TurnWaterfall): string {
  if (turn.costUsd > 0) return dollarWords(turn.costUsd);
  const { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens } = turn.tokens;
  return `${NUMBER.format(inputTokens + outputTokens + cacheReadTokens + cacheWriteTokens)} tokens`;
}
