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
 * The fake's prompt cache, by the API's rules: each block marked `cache_control` is a breakpoint,
 * and the prefix up to and including it (tools, then system, then messages) is its key. A request
 * reads the longest of its breakpoint prefixes that is cached and alive, writes each later one
 * that is long enough, and pays full price for the rest. Token counts are an estimate, a quarter
 * of each block's JSON, so a test can predict them.
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
    const { total, breakpoints } = prefixesOf(body);
    // a prefix shorter than the minimum is neither written nor read
    const cacheable = breakpoints.filter((b) => b.tokens >= this.options.minCacheTokens);
    // the longest prefix still cached is read; each longer one is written
    const hit = cacheable.findLastIndex((b) => this.entries.has(b.key));
    const read = cacheable[hit]?.tokens ?? 0;
    const written = cacheable.slice(hit + 1);
    // a read refreshes the entry's lifetime, and a write starts it
    for (const b of cacheable.slice(Math.max(hit, 0))) this.entries.set(b.key, now);
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

/** The request's estimated input tokens, and each breakpoint's prefix: its key and its tokens. */
function prefixesOf(body: MessageCreateParams): {
  total: number;
  breakpoints: { key: string; tokens: number }[];
} {
  // a cache belongs to one model: another model's request never reads it
  const hash = createHash('sha256').update(canonicalJson(body.model));
  const breakpoints: { key: string; tokens: number }[] = [];
  let total = 0;
  for (const segment of segmentsOf(body)) {
    hash.update(`${canonicalJson(segment.keyed)}\n`);
    total += estimateTokens(segment.block);
    if (segment.breakpoint) breakpoints.push({ key: hash.copy().digest('hex'), tokens: total });
  }
  return { total, breakpoints };
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
