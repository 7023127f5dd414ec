import * as z from 'zod';

import { err, ok } from '@sweatpants/domain';
import type { FieldProblem, Result } from '@sweatpants/domain';

/** How ClaudeModel retries 429, 529, 5xx and dropped connections before it reports them. */
export interface RetryPolicy {
  /** retries after the first attempt: 2 means at most 3 requests */
  maxRetries: number;
  /** the first backoff; each retry doubles it */
  baseDelayMs: number;
  /** no wait is longer, not even one a `retry-after` header asks for */
  maxDelayMs: number;
}

/** Everything ClaudeModel needs; `claudeConfig` fills the defaults. */
export interface ClaudeConfig {
  apiKey: string;
  /** unset: the SDK's default, https://api.anthropic.com (tests point it at the fake server) */
  baseURL?: string;
  model: string;
  /**
   * Asked when the model stays busy (429 or overloaded after every retry): another model of the
   * deployment's choosing, so a person gets an answer on a bad day. Unset: none.
   */
  fallbackModel?: string;
  /** `max_tokens` of a request that does not set its own */
  maxTokens: number;
  retry: RetryPolicy;
  /**
   * Stream replies (the default): text reaches the client as it is written. False sends one
   * plain `messages.create` and waits for the whole reply, for proxies that do not pass SSE.
   */
  stream?: boolean;
}

/**
 * The newest Sonnet the installed SDK knows (its `Model` union and README examples). The SDK
 * warns on every request naming a deprecated model: `claude-sonnet-4-5` retires 2026-11-30.
 */
export const DEFAULT_CLAUDE_MODEL = 'claude-sonnet-5-5';
export const DEFAULT_MAX_TOKENS = 4096;
export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8000 };

/**
 * A complete config from the fields that matter, defaults for the rest.
 *
 * @example
 * claudeConfig({ apiKey: 'k', baseURL: fake.url, retry: { baseDelayMs: 1, maxDelayMs: 5 } })
 */
export function claudeConfig(
  fields: Pick<ClaudeConfig, 'apiKey'> &
    Partial<Omit<ClaudeConfig, 'apiKey' | 'retry'>> & { retry?: Partial<RetryPolicy> },
): ClaudeConfig {
  return {
    apiKey: fields.apiKey,
    ...(fields.baseURL === undefined ? {} : { baseURL: fields.baseURL }),
    model: fields.model ?? DEFAULT_CLAUDE_MODEL,
    ...(fields.fallbackModel === undefined ? {} : { fallbackModel: fields.fallbackModel }),
    maxTokens: fields.maxTokens ?? DEFAULT_MAX_TOKENS,
    retry: { ...DEFAULT_RETRY, ...fields.retry },
    stream: fields.stream ?? true,
  };
}

// An empty variable (`ANTHROPIC_MODEL=` in a .env file) means unset, as in the api's own config.
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());

const ClaudeEnvSchema = z.object({
  ANTHROPIC_API_KEY: optional(z.string().trim()),
  ANTHROPIC_BASE_URL: optional(
    z
      .string()
      .trim()
      .refine((v) => URL.canParse(v) && ['http:', 'https:'].includes(new URL(v).protocol), {
        message: 'must be a URL starting with http:// or https://',
      }),
  ),
  ANTHROPIC_MODEL: optional(z.string().trim()),
  ANTHROPIC_FALLBACK_MODEL: optional(z.string().trim()),
  ANTHROPIC_MAX_TOKENS: optional(
    z.coerce
      .number({ message: 'must be a whole number' })
      .int('must be a whole number')
      .positive('must be positive'),
  ),
});

/**
 * The Claude config from the environment. `ok(null)` when there is no API key: the product then
 * runs the offline model. Problems name the variable and never echo its value (it may be the key).
 * An empty variable counts as unset.
 *
 * - `ANTHROPIC_API_KEY`: the key; unset means the offline model.
 * - `ANTHROPIC_BASE_URL`: an http(s) URL in place of https://api.anthropic.com (a proxy, a fake).
 * - `ANTHROPIC_MODEL`: the model id sent with every request; default {@link DEFAULT_CLAUDE_MODEL}.
 * - `ANTHROPIC_FALLBACK_MODEL`: a model asked when the model stays busy (429, overloaded) after its
 *   retries; unset, none.
 * - `ANTHROPIC_MAX_TOKENS`: a positive whole number, the `max_tokens` of a request that does not
 *   set its own; default {@link DEFAULT_MAX_TOKENS}.
 *
 * @example
 * const config = claudeConfigFrom(process.env);
 * if (config.ok && config.value) model = new ClaudeModel(config.value);
 */
export function claudeConfigFrom(
  env: Record<string, string | undefined>,
): Result<ClaudeConfig | null, FieldProblem[]> {
  const parsed = ClaudeEnvSchema.safeParse(env);
  if (!parsed.success) {
    return err(parsed.error.issues.map((i) => ({ field: String(i.path[0] ?? '(env)'), message: i.message })));
  }
  const e = parsed.data;
  if (e.ANTHROPIC_API_KEY === undefined) return ok(null);
  return ok(
    claudeConfig({
      apiKey: e.ANTHROPIC_API_KEY,
      ...(e.ANTHROPIC_BASE_URL === undefined ? {} : { baseURL: e.ANTHROPIC_BASE_URL }),
      ...(e.ANTHROPIC_MODEL === undefined ? {} : { model: e.ANTHROPIC_MODEL }),
      ...(e.ANTHROPIC_FALLBACK_MODEL === undefined ? {} : { fallbackModel: e.ANTHROPIC_FALLBACK_MODEL }),
      ...(e.ANTHROPIC_MAX_TOKENS === undefined ? {} : { maxTokens: e.ANTHROPIC_MAX_TOKENS }),
    }),
  );
}
