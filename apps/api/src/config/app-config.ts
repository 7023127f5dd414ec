import { resolve } from 'node:path';
import * as z from 'zod';

/** Everything the api reads from the environment, parsed once at start. */
export interface AppConfig {
  port: number;
  /** unset: embedded PGlite in `<dataDir>/pglite` */
  databaseUrl: string | undefined;
  /** unset: jobs run in-process */
  redisUrl: string | undefined;
  /** unset: the offline model */
  anthropicApiKey: string | undefined;
  /** absolute */
  dataDir: string;
  /** lower-cased */
  adminEmails: readonly string[];
  /** absolute; the built web client served at `/` */
  webDist: string;
  /** unset: a secret made once and kept in `<dataDir>/jwt-secret`, so tokens outlive a restart */
  jwtSecret: string | undefined;
  /** how long a token lives */
  tokenTtlSeconds: number;
  /** origins allowed by CORS besides the api's own */
  webOrigins: readonly string[];
  /** requests (HTTP) and events (WebSocket) each user may make per minute */
  rateLimit: { httpPerMinute: number; wsPerMinute: number };
  /** the variables that were unset, so their defaults are in force */
  unset: readonly EnvName[];
}

/** Thrown when the environment does not parse; the message names every bad variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export const APP_CONFIG = Symbol('AppConfig');

const DEFAULT_PORT = 3000;
const DEFAULT_DATA_DIR = './data';
const DEFAULT_WEB_DIST = 'dist/apps/web/browser';
const DEFAULT_TOKEN_TTL_SECONDS = 3600;
/** `ng serve` during development; the built client is same-origin and needs no entry. */
const DEFAULT_WEB_ORIGINS = ['http://localhost:4200'];
/** Generous: a person never comes near these; the e2e run and the bench must not either. */
const DEFAULT_HTTP_PER_MINUTE = 3000;
const DEFAULT_WS_PER_MINUTE = 3000;

// An empty variable (`DATABASE_URL=` in a .env file or compose file) means unset, not "".
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());

const urlWithScheme = (schemes: string[]) =>
  z
    .string()
    .trim()
    .refine((v) => URL.canParse(v) && schemes.includes(new URL(v).protocol.slice(0, -1)), {
      message: `must be a URL starting with ${schemes.map((s) => `${s}://`).join(' or ')}`,
    });

function positiveInt(message: string) {
  return z.coerce.number({ message }).int(message).positive(message);
}

const EnvSchema = z.object({
  PORT: optional(
    z.coerce
      .number({ message: 'must be a port number' })
      .int('must be a port number')
      .min(0, 'must be a port number')
      .max(65535, 'must be at most 65535'),
  ),
  DATABASE_URL: optional(urlWithScheme(['postgres', 'postgresql'])),
  REDIS_URL: optional(urlWithScheme(['redis', 'rediss'])),
  ANTHROPIC_API_KEY: optional(z.string().trim()),
  DATA_DIR: optional(z.string().trim()),
  ADMIN_EMAILS: optional(
    z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((e) => e.trim().toLowerCase())
          .filter((e) => e !== ''),
      )
      .pipe(z.array(z.email({ message: 'must be a comma-separated list of email addresses' }))),
  ),
  WEB_DIST: optional(z.string().trim()),
  JWT_SECRET: optional(z.string().trim().min(32, 'must be at least 32 characters')),
  JWT_TTL_SECONDS: optional(positiveInt('must be a number of seconds')),
  WEB_ORIGIN: optional(
    z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((o) => o.trim())
          .filter((o) => o !== ''),
      )
      .pipe(
        z.array(
          z.string().refine((o) => URL.canParse(o) && new URL(o).origin === o, {
            message: 'must be a comma-separated list of origins such as https://app.example.com',
          }),
        ),
      ),
  ),
  RATE_LIMIT_HTTP_PER_MINUTE: optional(positiveInt('must be a whole number of requests')),
  RATE_LIMIT_WS_PER_MINUTE: optional(positiveInt('must be a whole number of events')),
});

export type EnvName = keyof z.infer<typeof EnvSchema>;

/**
 * Parses the environment. Relative paths resolve against `cwd`. Throws a ConfigError naming each
 * bad variable and why, never echoing a value (they may hold passwords or keys).
 */
export function loadConfig(env: Record<string, string | undefined>, cwd = process.cwd()): AppConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0] ?? '(env)')}: ${i.message}`);
    throw new ConfigError(`invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const unset = (Object.keys(EnvSchema.shape) as EnvName[]).filter((name) => e[name] === undefined);
  return {
    port: e.PORT ?? DEFAULT_PORT,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    anthropicApiKey: e.ANTHROPIC_API_KEY,
    dataDir: resolve(cwd, e.DATA_DIR ?? DEFAULT_DATA_DIR),
    adminEmails: e.ADMIN_EMAILS ?? [],
    webDist: resolve(cwd, e.WEB_DIST ?? DEFAULT_WEB_DIST),
    jwtSecret: e.JWT_SECRET,
    tokenTtlSeconds: e.JWT_TTL_SECONDS ?? DEFAULT_TOKEN_TTL_SECONDS,
    webOrigins: e.WEB_ORIGIN ?? DEFAULT_WEB_ORIGINS,
    rateLimit: {
      httpPerMinute: e.RATE_LIMIT_HTTP_PER_MINUTE ?? DEFAULT_HTTP_PER_MINUTE,
      wsPerMinute: e.RATE_LIMIT_WS_PER_MINUTE ?? DEFAULT_WS_PER_MINUTE,
    },
    unset,
  };
}

/**
 * One line for each plain default in force. DATABASE_URL, REDIS_URL, ANTHROPIC_API_KEY and
 * JWT_SECRET are announced by the modules that act on them, which know what the default does.
 */
export function describeDefaults(config: AppConfig): string[] {
  const notes: Partial<Record<EnvName, string>> = {
    PORT: `PORT unset: listening on ${config.port}`,
    DATA_DIR: `DATA_DIR unset: local data goes in ${config.dataDir}`,
    ADMIN_EMAILS: 'ADMIN_EMAILS unset: no account is an admin',
    WEB_DIST: `WEB_DIST unset: the web client is served from ${config.webDist}`,
    JWT_TTL_SECONDS: `JWT_TTL_SECONDS unset: tokens live ${config.tokenTtlSeconds}s`,
    WEB_ORIGIN: `WEB_ORIGIN unset: CORS allows the api's own origin and ${config.webOrigins.join(', ')}`,
    RATE_LIMIT_HTTP_PER_MINUTE: `RATE_LIMIT_HTTP_PER_MINUTE unset: ${config.rateLimit.httpPerMinute} requests a minute per user`,
    RATE_LIMIT_WS_PER_MINUTE: `RATE_LIMIT_WS_PER_MINUTE unset: ${config.rateLimit.wsPerMinute} socket events a minute per user`,
  };
  return config.unset.flatMap((name) => notes[name] ?? []);
}
