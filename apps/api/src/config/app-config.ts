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
    unset,
  };
}

/**
 * One line for each plain default in force. DATABASE_URL, REDIS_URL and ANTHROPIC_API_KEY are
 * announced by the modules that act on them, which know what the default does.
 */
export function describeDefaults(config: AppConfig): string[] {
  const notes: Partial<Record<EnvName, string>> = {
    PORT: `PORT unset: listening on ${config.port}`,
    DATA_DIR: `DATA_DIR unset: local data goes in ${config.dataDir}`,
    ADMIN_EMAILS: 'ADMIN_EMAILS unset: no account is an admin',
    WEB_DIST: `WEB_DIST unset: the web client is served from ${config.webDist}`,
  };
  return config.unset.flatMap((name) => notes[name] ?? []);
}
