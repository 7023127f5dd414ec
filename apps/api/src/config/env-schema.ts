// The environment the api reads, as a schema: each variable, what it may hold and, when it holds
// something else, what the message says (never echoing the value). `loadConfig` (./app-config)
// turns what parses into the AppConfig, with its defaults.
import { parseMcpServers } from '@sweatpants/agent-runtime';
import * as z from 'zod';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** `Name <address>` or a bare address; the address as z.email() takes it. */
const MAIL_FROM = /^(?:[^<>]*<([^<>\s]+)>|([^<>\s]+))$/;

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

const S3_URL_HELP =
  'must be s3://<bucket>[/<prefix>][?endpoint=<http(s) URL>&region=<region>&forcePathStyle=true|false]';
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const S3_OPTIONS = ['endpoint', 'region', 'forcePathStyle'];

/**
 * BLOB_STORE_URL, e.g. `s3://photos?endpoint=http://minio:9000&region=us-east-1&forcePathStyle=true`:
 * the bucket is the host, an optional key prefix the path, the rest query options. Credentials are
 * not in the URL (it is logged, and shown in compose files): AWS_ACCESS_KEY_ID and friends.
 */
const S3UrlSchema = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const url = URL.canParse(value) ? new URL(value) : null;
    const bad = (message = S3_URL_HELP) => {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    if (!url || url.protocol !== 's3:' || url.username || url.password || url.port || url.hash) return bad();
    if (!BUCKET.test(url.hostname))
      return bad('must name a bucket (3-63 lowercase letters, digits, dots, hyphens)');
    for (const key of url.searchParams.keys()) {
      if (!S3_OPTIONS.includes(key)) return bad(`has an unknown option ${key}: ${S3_URL_HELP}`);
    }
    const endpoint = url.searchParams.get('endpoint') ?? undefined;
    if (endpoint !== undefined && !(URL.canParse(endpoint) && /^https?:$/.test(new URL(endpoint).protocol))) {
      return bad('endpoint must be an http:// or https:// URL');
    }
    const style = url.searchParams.get('forcePathStyle') ?? 'false';
    if (style !== 'true' && style !== 'false') return bad('forcePathStyle must be true or false');
    const path = decodeURIComponent(url.pathname).replace(/^\/+/, '');
    return {
      bucket: url.hostname,
      prefix: path === '' || path.endsWith('/') ? path : `${path}/`,
      endpoint: endpoint?.replace(/\/+$/, ''),
      region: url.searchParams.get('region') || 'us-east-1',
      forcePathStyle: style === 'true',
    };
  });

function nonNegativeInt(message: string) {
  return z.coerce.number({ message }).int(message).min(0, message);
}

function days() {
  return nonNegativeInt('must be a whole number of days');
}

/** A budget in dollars: `5`, `0.50`; 0 allows no model call at all. */
const dollars = () =>
  z.coerce
    .number({ message: 'must be an amount of dollars such as 5 or 0.50' })
    .min(0, 'must be an amount of dollars such as 5 or 0.50')
    .max(1_000_000, 'must be at most 1000000 dollars');

const portNumber = () =>
  z.coerce
    .number({ message: 'must be a port number' })
    .int('must be a port number')
    .min(0, 'must be a port number')
    .max(65535, 'must be at most 65535');

/** MCP_SERVERS: a JSON array of `{name, command, args?, env?}` and `{name, url, headers?}`. */
const McpServersEnvSchema = z.string().transform((value, ctx) => {
  const read = parseMcpServers(value);
  if (read.ok) return read.servers;
  ctx.addIssue({
    code: 'custom',
    message: `${read.problems.join('; ')} (a JSON array of {name, command, args?, env?} or {name, url, headers?})`,
  });
  return z.NEVER;
});

export const EnvSchema = z.object({
  PORT: optional(portNumber()),
  WORKER_PORT: optional(portNumber()),
  DATABASE_URL: optional(urlWithScheme(['postgres', 'postgresql'])),
  REDIS_URL: optional(urlWithScheme(['redis', 'rediss'])),
  ANTHROPIC_API_KEY: optional(z.string().trim()),
  OFFLINE_MODEL_PACE_MS: optional(nonNegativeInt('must be a whole number of milliseconds')),
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
  LOG_LEVEL: optional(z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` })),
  METRICS_TOKEN: optional(z.string().trim().min(16, 'must be at least 16 characters')),
  GC_EVERY_MINUTES: optional(
    z.union([z.literal('off'), positiveInt('must be a whole number of minutes, or off')], {
      message: 'must be a whole number of minutes, or off',
    }),
  ),
  GC_REFLOG_EXPIRE_DAYS: optional(days()),
  GC_REFLOG_EXPIRE_UNREACHABLE_DAYS: optional(days()),
  GC_DRY_RUN: optional(
    z.enum(['true', 'false'], { message: 'must be true or false' }).transform((v) => v === 'true'),
  ),
  BLOB_STORE_URL: optional(S3UrlSchema),
  AWS_ACCESS_KEY_ID: optional(z.string().trim()),
  AWS_SECRET_ACCESS_KEY: optional(z.string().trim()),
  AWS_SESSION_TOKEN: optional(z.string().trim()),
  MCP_SERVERS: optional(McpServersEnvSchema),
  MCP_TIMEOUT_MS: optional(positiveInt('must be a whole number of milliseconds')),
  PUBLIC_URL: optional(urlWithScheme(['http', 'https'])),
  PASSWORD_SIGNIN: optional(
    z.enum(['on', 'off'], { message: 'must be on or off' }).transform((v) => v === 'on'),
  ),
  OIDC_ISSUER: optional(urlWithScheme(['http', 'https'])),
  OIDC_CLIENT_ID: optional(z.string().trim()),
  OIDC_CLIENT_SECRET: optional(z.string().trim()),
  OIDC_NAME: optional(z.string().trim().max(60, 'must be at most 60 characters')),
  OIDC_SCOPES: optional(z.string().trim()),
  OIDC_ADMIN_CLAIM: optional(z.string().trim()),
  OIDC_ADMIN_VALUE: optional(z.string().trim()),
  SPEND_LIMIT_DAILY_USD: optional(dollars()),
  SPEND_LIMIT_MONTHLY_USD: optional(dollars()),
  SMTP_URL: optional(urlWithScheme(['smtp', 'smtps'])),
  MAIL_FROM: optional(
    z
      .string()
      .trim()
      .refine(
        (v) => {
          const match = MAIL_FROM.exec(v);
          return z.email().safeParse(match?.[1] ?? match?.[2]).success;
        },
        { message: 'must be an address, or a name and <address>' },
      ),
  ),
});

export type EnvName = keyof z.infer<typeof EnvSchema>;

/** The environment as it parsed: every variable optional, unset ones undefined. */
export type Env = z.infer<typeof EnvSchema>;
