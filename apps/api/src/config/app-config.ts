import { resolve } from 'node:path';
import { DEFAULT_MCP_TIMEOUT_MS, type McpServerConfig } from '@sweatpants/agent-runtime';
import { embeddedMcpServer } from '@sweatpants/product-agents';
import { DEFAULT_RETENTION, type RetentionPolicy } from '@sweatpants/tree-store';
import { EnvSchema, type Env, type EnvName, type LogLevel } from './env-schema';

/** Everything the api reads from the environment, parsed once at start. */
export interface AppConfig {
  port: number;
  /** unset: embedded PGlite in `<dataDir>/pglite` */
  databaseUrl: string | undefined;
  /** unset: jobs run in-process */
  redisUrl: string | undefined;
  /** unset: the offline model */
  anthropicApiKey: string | undefined;
  /**
   * How long the offline model thinks before each reply (0: at once). A real model takes seconds
   * a call; a demo or a browser test that must see the agent at work (a message queued while it
   * works, a Stop) sets it.
   */
  offlinePaceMs: number;
  /**
   * The ANTHROPIC_* variables as given (base URL, model, max tokens), checked by the Claude
   * adapter's own `claudeConfigFrom`: read from the environment the config was loaded from, so an
   * app started with an env of its own (a test's) reaches the model that env names.
   */
  anthropicEnv: Readonly<Record<string, string | undefined>>;
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
  /** pino's level for the JSON logs */
  logLevel: LogLevel;
  /** unset: `/api/metrics` answers loopback callers only */
  metricsToken: string | undefined;
  /** where the worker process (`npm run worker`) serves its own metrics and liveness */
  workerPort: number;
  /** garbage collection: how often it runs (null: never on its own), the retention policy, dry run */
  gc: { everyMinutes: number | null; policy: RetentionPolicy; dryRun: boolean };
  /** where photos' bytes go: the database (unset BLOB_STORE_URL), or an S3-compatible bucket */
  blobStore: BlobStoreConfig;
  /** the MCP servers the assistant uses; unset MCP_SERVERS: server-everything over stdio */
  mcpServers: readonly McpServerConfig[];
  /** how long a call to an MCP server may take, for servers that say nothing of their own */
  mcpTimeoutMs: number;
  /**
   * where people reach the product (the identity provider returns them here, mails' links open
   * here; passkeys are bound to its host and origin); no trailing slash
   */
  publicUrl: string;
  /** false (`PASSWORD_SIGNIN=off`): no sign-in or registration with a password, only the provider */
  passwordSignIn: boolean;
  /** sign-in with an OpenID Connect provider; null when OIDC_ISSUER is unset */
  oidc: OidcConfig | null;
  /** each person's default budget for model calls, in dollars per UTC day and month; null: none */
  spendLimit: { dailyUsd: number | null; monthlyUsd: number | null };
  /** how mail goes out: SMTP_URL's server, or (unset) the log; `from` is MAIL_FROM */
  mail: MailConfig;
  /** the variables that were unset, so their defaults are in force */
  unset: readonly EnvName[];
}

/** The OpenID Connect provider people may sign in with (OIDC_*). */
export interface OidcConfig {
  /** the issuer, whose discovery document is at `<issuer>/.well-known/openid-configuration` */
  issuer: string;
  clientId: string;
  /** unset: a public client (PKCE alone) */
  clientSecret: string | undefined;
  /** the button's label: "Sign in with <name>" */
  name: string;
  /** what is asked of the provider, space-separated; `openid` always among them */
  scopes: string;
  /** admins also come from this claim (a string or an array, such as `groups`) holding `value` */
  admin: { claim: string; value: string } | null;
}

/** Mail to people (a link to prove their email, to set a new password). */
export interface MailConfig {
  /** `smtp://` or `smtps://`, with the login in it when the server wants one; unset: the log */
  smtpUrl: string | undefined;
  /** the sender, `Name <address>` or a bare address */
  from: string;
}

/**
 * Where blob bytes live. Either way the database keeps each blob's row (type, size, who names it),
 * so access checks and gc are SQL; with S3 the row's `data` is null and the bytes are the object
 * `<prefix><sha256>` in the bucket.
 */
export type BlobStoreConfig =
  | { kind: 'database' }
  | {
      kind: 's3';
      bucket: string;
      /** prepended to each object's key; '' or ending in '/' */
      prefix: string;
      /** e.g. http://minio:9000; unset: AWS's own endpoint for the region */
      endpoint: string | undefined;
      region: string;
      /** `<endpoint>/<bucket>/<key>` rather than `<bucket>.<endpoint host>/<key>` (MinIO wants it) */
      forcePathStyle: boolean;
      credentials: { accessKeyId: string; secretAccessKey: string; sessionToken: string | undefined };
    };

/** Thrown when the environment does not parse; the message names every bad variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export const APP_CONFIG = Symbol('AppConfig');

const DEFAULT_PORT = 3000;
/** The worker's metrics and liveness port: Prometheus exporters' customary range. */
const DEFAULT_WORKER_PORT = 9464;
const DEFAULT_DATA_DIR = './data';
const DEFAULT_WEB_DIST = 'dist/apps/web/browser';
const DEFAULT_TOKEN_TTL_SECONDS = 3600;
/** `ng serve` during development; the built client is same-origin and needs no entry. */
const DEFAULT_WEB_ORIGINS = ['http://localhost:4200'];
/** Generous: a person never comes near these; the e2e run and the bench must not either. */
const DEFAULT_HTTP_PER_MINUTE = 3000;
const DEFAULT_WS_PER_MINUTE = 3000;
/** Once a day, with git's retention (gc.reflogExpire 90 days, gc.reflogExpireUnreachable 30). */
const DEFAULT_GC_EVERY_MINUTES = 24 * 60;
/** `no-reply@` the host people reach the product at. */
const defaultMailFrom = (publicUrl: string): string => `Sweatpants <no-reply@${new URL(publicUrl).hostname}>`;

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
  if (e.BLOB_STORE_URL && (e.AWS_ACCESS_KEY_ID === undefined || e.AWS_SECRET_ACCESS_KEY === undefined)) {
    throw new ConfigError(
      'invalid environment:\n  AWS_ACCESS_KEY_ID: BLOB_STORE_URL names a bucket: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY',
    );
  }
  const unset = (Object.keys(EnvSchema.shape) as EnvName[]).filter((name) => e[name] === undefined);
  const port = e.PORT ?? DEFAULT_PORT;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    port,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    anthropicApiKey: e.ANTHROPIC_API_KEY,
    offlinePaceMs: e.OFFLINE_MODEL_PACE_MS ?? 0,
    anthropicEnv: Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith('ANTHROPIC_'))),
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
    logLevel: e.LOG_LEVEL ?? 'info',
    metricsToken: e.METRICS_TOKEN,
    workerPort: e.WORKER_PORT ?? DEFAULT_WORKER_PORT,
    gc: {
      everyMinutes: e.GC_EVERY_MINUTES === 'off' ? null : (e.GC_EVERY_MINUTES ?? DEFAULT_GC_EVERY_MINUTES),
      policy: {
        reachableDays: e.GC_REFLOG_EXPIRE_DAYS ?? DEFAULT_RETENTION.reachableDays,
        unreachableDays: e.GC_REFLOG_EXPIRE_UNREACHABLE_DAYS ?? DEFAULT_RETENTION.unreachableDays,
      },
      dryRun: e.GC_DRY_RUN ?? false,
    },
    blobStore: e.BLOB_STORE_URL
      ? {
          kind: 's3',
          ...e.BLOB_STORE_URL,
          credentials: {
            accessKeyId: e.AWS_ACCESS_KEY_ID ?? '',
            secretAccessKey: e.AWS_SECRET_ACCESS_KEY ?? '',
            sessionToken: e.AWS_SESSION_TOKEN,
          },
        }
      : { kind: 'database' },
    mcpServers: e.MCP_SERVERS ?? [embeddedMcpServer()],
    mcpTimeoutMs: e.MCP_TIMEOUT_MS ?? DEFAULT_MCP_TIMEOUT_MS,
    publicUrl,
    ...signIn(e),
    spendLimit: { dailyUsd: e.SPEND_LIMIT_DAILY_USD ?? null, monthlyUsd: e.SPEND_LIMIT_MONTHLY_USD ?? null },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM ?? defaultMailFrom(publicUrl) },
    unset,
  };
}

/** OIDC_* and PASSWORD_SIGNIN, each checked against the others so that someone can sign in. */
function signIn(e: Env): Pick<AppConfig, 'passwordSignIn' | 'oidc'> {
  const problems: string[] = [];
  if (e.OIDC_ISSUER !== undefined && e.OIDC_CLIENT_ID === undefined) {
    problems.push('OIDC_CLIENT_ID: OIDC_ISSUER names a provider: set the client id it knows this product by');
  }
  if ((e.OIDC_ADMIN_CLAIM === undefined) !== (e.OIDC_ADMIN_VALUE === undefined)) {
    problems.push('OIDC_ADMIN_VALUE: set both OIDC_ADMIN_CLAIM and OIDC_ADMIN_VALUE, or neither');
  }
  if (e.PASSWORD_SIGNIN === false && e.OIDC_ISSUER === undefined) {
    problems.push('PASSWORD_SIGNIN: off leaves no way to sign in: set OIDC_ISSUER too');
  }
  if (problems.length > 0) throw new ConfigError(`invalid environment:\n  ${problems.join('\n  ')}`);
  const oidc: OidcConfig | null =
    e.OIDC_ISSUER === undefined || e.OIDC_CLIENT_ID === undefined
      ? null
      : {
          issuer: e.OIDC_ISSUER,
          clientId: e.OIDC_CLIENT_ID,
          clientSecret: e.OIDC_CLIENT_SECRET,
          name: e.OIDC_NAME ?? new URL(e.OIDC_ISSUER).hostname,
          scopes: withOpenId(e.OIDC_SCOPES ?? DEFAULT_OIDC_SCOPES),
          admin:
            e.OIDC_ADMIN_CLAIM !== undefined && e.OIDC_ADMIN_VALUE !== undefined
              ? { claim: e.OIDC_ADMIN_CLAIM, value: e.OIDC_ADMIN_VALUE }
              : null,
        };
  return { passwordSignIn: e.PASSWORD_SIGNIN ?? true, oidc };
}

/** The scopes that bring the email and name an account is made from. */
const DEFAULT_OIDC_SCOPES = 'openid email profile';

const withOpenId = (scopes: string): string => {
  const list = scopes.split(/\s+/).filter((scope) => scope !== '');
  return (list.includes('openid') ? list : ['openid', ...list]).join(' ');
};

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
    METRICS_TOKEN: 'METRICS_TOKEN unset: /api/metrics answers loopback callers only',
    GC_EVERY_MINUTES: `GC_EVERY_MINUTES unset: gc runs every ${config.gc.everyMinutes ?? 0} minutes`,
    GC_REFLOG_EXPIRE_DAYS: `GC_REFLOG_EXPIRE_DAYS unset: history is kept ${config.gc.policy.reachableDays} days`,
    GC_REFLOG_EXPIRE_UNREACHABLE_DAYS: `GC_REFLOG_EXPIRE_UNREACHABLE_DAYS unset: discarded branches are kept ${config.gc.policy.unreachableDays} days`,
    BLOB_STORE_URL: 'BLOB_STORE_URL unset: photos are stored in the database',
    MCP_SERVERS: `MCP_SERVERS unset: the assistant uses @modelcontextprotocol/server-everything over stdio, as the MCP server "everything"`,
    MCP_TIMEOUT_MS: `MCP_TIMEOUT_MS unset: a call to an MCP server may take ${config.mcpTimeoutMs / 1000} s`,
    PUBLIC_URL: `PUBLIC_URL unset: people reach the product at ${config.publicUrl} (passkeys work there only: open localhost, not 127.0.0.1)`,
    OIDC_ISSUER: 'OIDC_ISSUER unset: people sign in with their email and password only',
    SPEND_LIMIT_DAILY_USD:
      'SPEND_LIMIT_DAILY_USD unset: no daily spend limit per person (an admin may set one)',
    SPEND_LIMIT_MONTHLY_USD:
      'SPEND_LIMIT_MONTHLY_USD unset: no monthly spend limit per person (an admin may set one)',
    SMTP_URL: 'SMTP_URL unset: mail is not sent; each mail (its link included) is written to the log',
    MAIL_FROM: `MAIL_FROM unset: mail comes from ${config.mail.from}`,
  };
  return config.unset.flatMap((name) => notes[name] ?? []);
}
