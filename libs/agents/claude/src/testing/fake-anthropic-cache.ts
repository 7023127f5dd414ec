import { createHash } from 'node:crypto';

import type { MessageCreateParams } from '@anthropic-ai/sdk/resources/messages';

import type { FakeUsage } from './fake-anthropic-steps';

/** How long a cache entry lives after it was last written or read: the API's default, 5 minutes. */
export const CACHE_TTL_MS = 5 * 60_000;

/** The shortest prefix the API caches on Sonnet and Opus, in tokens. */
export const DEFAULT_MIN_CACHE_TOKENS = 1024;

/** The most blocks one request may mark with `cache_control`; the API refuses more with a 400. */
export const MAX_BREAKPOINTS = 4;

/** The input half of a request's usage, as the API splits it. */
export type InputUsage = Omit<FakeUsage, 'outputTokens'>;

/**
 * How far back from a breakpoint the API looks for a cached prefix, in blocks: a request whose
 * breakpoint moved on by a few blocks still reads what an earlier one wrote, up to this many
 * blocks before it (the documented lookback window).
 */
export const LOOKBACK_BLOCKS = 20;

/**
 * The fake's prompt cache, by the API's rules: each block marked `cache_control` is a breakpoint,
 * and the prefix up to and including it (tools, then system, then messages) is its key. A request
 * reads the longest cached, alive prefix that ends at one of its breakpoints or at a block within
 * LOOKBACK_BLOCKS before one, writes each later breakpoint's prefix that is long enough, and pays
 * full price for the rest. Token counts are an estimate, a quarter of each block's JSON, so a
 * test can predict them.
 *
 * @example
 * const cache = new FakePromptCache({ minCacheTokens: 1024, now: Date.now });
 * cache.account(body); // { inputTokens: 40, cacheWriteTokens: 1500, cacheReadTokens: 0 }
 * cache.account(body); // { inputTokens: 40, cacheWriteTokens: 0, cacheReadTokens: 1500 }
 */
export class FakePromptCache {
  /** each cached prefix's key → when it was last written or read (ms) */
  private readonly entries = new Map<string, number>();

  constructor(private readonly options: { minCacheTokens: number; now: () => number }) {}

  /** What `body` costs given what earlier requests cached, and the cache as `body` leaves it. */
  account(body: MessageCreateParams): InputUsage {
    const now = this.options.now();
    this.forgetExpired(now);
    const { total, prefixes } = prefixesOf(body);
    // the longest prefix still cached within the lookback of a breakpoint is read
    let hit: Prefix | undefined;
    prefixes.forEach((p, i) => {
      if (!p.breakpoint) return;
      for (const candidate of prefixes.slice(Math.max(0, i - LOOKBACK_BLOCKS + 1), i + 1))
        if (this.entries.has(candidate.key) && candidate.tokens > (hit?.tokens ?? 0)) hit = candidate;
    });
    const read = hit?.tokens ?? 0;
    // each longer breakpoint prefix is written; a prefix shorter than the minimum never is
    const written = prefixes.filter(
      (p) => p.breakpoint && p.tokens > read && p.tokens >= this.options.minCacheTokens,
    );
    // a read refreshes the entry's lifetime, and a write starts it
    if (hit) this.entries.set(hit.key, now);
    for (const p of written) this.entries.set(p.key, now);
    const writeEnd = written.at(-1)?.tokens ?? read;
    return { inputTokens: total - writeEnd, cacheWriteTokens: writeEnd - read, cacheReadTokens: read };
  }

  private forgetExpired(now: number): void {
    for (const [key, touched] of this.entries) {
      if (now - touched >= CACHE_TTL_MS) this.entries.delete(key);
    }
  }
}

/** How many blocks of `body` carry `cache_control` (tools, system blocks, message blocks). */
export function breakpointCount(body: MessageCreateParams): number {
  return segmentsOf(body).filter((s) => s.breakpoint).length;
}

/** The estimated tokens of a value: a quarter of its JSON's length (cache_control left out), rounded up. */
export function estimateTokens(value: unknown): number {
  return Math.ceil(canonicalJson(value).length / 4);
}

interface Segment {
  /** what the prefix key covers: the block, and for a message block its message's index and role */
  keyed: unknown;
  block: unknown;
  breakpoint: boolean;
}

/** The prefix that ends at one block: its key, its tokens, and whether the block is a breakpoint. */
interface Prefix {
  key: string;
  tokens: number;
  breakpoint: boolean;
}

/** The request's estimated input tokens, and the prefix ending at each of its blocks. */
function prefixesOf(body: MessageCreateParams): { total: number; prefixes: Prefix[] } {
  // a cache belongs to one model: another model's request never reads it
  const hash = createHash('sha256').update(canonicalJson(body.model));
  const prefixes: Prefix[] = [];
  let total = 0;
  for (const segment of segmentsOf(body)) {
    hash.update(`${canonicalJson(segment.keyed)}\n`);
    total += estimateTokens(segment.block);
    prefixes.push({ key: hash.copy().digest('hex'), tokens: total, breakpoint: segment.breakpoint });
  }
  return { total, prefixes };
}

/** Every block of the request in the order the cache reads them: tools, then system, then messages. */
function segmentsOf(body: MessageCreateParams): Segment[] {
  const system = typeof body.system === 'string' ? [textBlock(body.system)] : (body.system ?? []);
  return [
    ...(body.tools ?? []).map((tool) => segment({ tool }, tool)),
    ...system.map((block) => segment({ system: block }, block)),
    ...body.messages.flatMap((m, index) =>
      (typeof m.content === 'string' ? [textBlock(m.content)] : m.content).map((block) =>
        segment({ message: index, role: m.role, block }, block),
      ),
    ),
  ];
}

function segment(keyed: unknown, block: object): Segment {
  return { keyed, block, breakpoint: 'cache_control' in block && block.cache_control != null };
}

function textBlock(text: string): { type: 'text'; text: string } {
  return { type: 'text', text };
}

/**
 * JSON with each object's keys sorted and every `cache_control` left out, so two requests that
 * differ only in key order or in where their breakpoints sit share their prefixes, as on the API.
 */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const fields = Object.entries(value)
      .filter(([key, v]) => key !== 'cache_control' && v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, v]) => `${JSON.stringify(key)}:${canonicalJson(v)}`);
    return `{${fields.join(',')}}`;
  }
  return JSON.stringify(value);
}
