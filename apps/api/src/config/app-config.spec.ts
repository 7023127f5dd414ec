import { embeddedMcpServer } from '@sweatpants/product-agents';
import { ConfigError, describeDefaults, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('puts every default in force for an empty environment, and says so', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toEqual({
      port: 3000,
      databaseUrl: undefined,
      redisUrl: undefined,
      anthropicApiKey: undefined,
      offlinePaceMs: 0,
      anthropicEnv: {},
      dataDir: '/srv/app/data',
      adminEmails: [],
      webDist: '/srv/app/dist/apps/web/browser',
      jwtSecret: undefined,
      tokenTtlSeconds: 3600,
      webOrigins: ['http://localhost:4200'],
      rateLimit: { httpPerMinute: 3000, wsPerMinute: 3000 },
      logLevel: 'info',
      metricsToken: undefined,
      workerPort: 9464,
      gc: { everyMinutes: 1440, policy: { reachableDays: 90, unreachableDays: 30 }, dryRun: false },
      blobStore: { kind: 'database' },
      mcpServers: [embeddedMcpServer()],
      mcpTimeoutMs: 30_000,
      publicUrl: 'http://localhost:3000',
      passwordSignIn: true,
      oidc: null,
      spendLimit: { dailyUsd: null, monthlyUsd: null },
      mail: { smtpUrl: undefined, from: 'Sweatpants <no-reply@localhost>' },
      unset: [
        'PORT',
        'WORKER_PORT',
        'DATABASE_URL',
        'REDIS_URL',
        'ANTHROPIC_API_KEY',
        'OFFLINE_MODEL_PACE_MS',
        'DATA_DIR',
        'ADMIN_EMAILS',
        'WEB_DIST',
        'JWT_SECRET',
        'JWT_TTL_SECONDS',
        'WEB_ORIGIN',
        'RATE_LIMIT_HTTP_PER_MINUTE',
        'RATE_LIMIT_WS_PER_MINUTE',
        'LOG_LEVEL',
        'METRICS_TOKEN',
        'GC_EVERY_MINUTES',
        'GC_REFLOG_EXPIRE_DAYS',
        'GC_REFLOG_EXPIRE_UNREACHABLE_DAYS',
        'GC_DRY_RUN',
        'BLOB_STORE_URL',
        'AWS_ACCESS_KEY_ID',
        'AWS_SECRET_ACCESS_KEY',
        'AWS_SESSION_TOKEN',
        'MCP_SERVERS',
        'MCP_TIMEOUT_MS',
        'PUBLIC_URL',
        'PASSWORD_SIGNIN',
        'OIDC_ISSUER',
        'OIDC_CLIENT_ID',
        'OIDC_CLIENT_SECRET',
        'OIDC_NAME',
        'OIDC_SCOPES',
        'OIDC_ADMIN_CLAIM',
        'OIDC_ADMIN_VALUE',
        'SPEND_LIMIT_DAILY_USD',
        'SPEND_LIMIT_MONTHLY_USD',
        'SMTP_URL',
        'MAIL_FROM',
      ],
    });
    expect(describeDefaults(config)).toEqual([
      'PORT unset: listening on 3000',
      'DATA_DIR unset: local data goes in /srv/app/data',
      'ADMIN_EMAILS unset: no account is an admin',
      'WEB_DIST unset: the web client is served from /srv/app/dist/apps/web/browser',
      'JWT_TTL_SECONDS unset: tokens live 3600s',
      "WEB_ORIGIN unset: CORS allows the api's own origin and http://localhost:4200",
      'RATE_LIMIT_HTTP_PER_MINUTE unset: 3000 requests a minute per user',
      'RATE_LIMIT_WS_PER_MINUTE unset: 3000 socket events a minute per user',
      'METRICS_TOKEN unset: /api/metrics answers loopback callers only',
      'GC_EVERY_MINUTES unset: gc runs every 1440 minutes',
      'GC_REFLOG_EXPIRE_DAYS unset: history is kept 90 days',
      'GC_REFLOG_EXPIRE_UNREACHABLE_DAYS unset: discarded branches are kept 30 days',
      'BLOB_STORE_URL unset: photos are stored in the database',
      'MCP_SERVERS unset: the assistant uses @modelcontextprotocol/server-everything over stdio, as the MCP server "everything"',
      'MCP_TIMEOUT_MS unset: a call to an MCP server may take 30 s',
      'PUBLIC_URL unset: people reach the product at http://localhost:3000 (passkeys work there only: open localhost, not 127.0.0.1)',
      'OIDC_ISSUER unset: people sign in with their email and password only',
      'SPEND_LIMIT_DAILY_USD unset: no daily spend limit per person (an admin may set one)',
      'SPEND_LIMIT_MONTHLY_USD unset: no monthly spend limit per person (an admin may set one)',
      'SMTP_URL unset: mail is not sent; each mail (its link included) is written to the log',
      'MAIL_FROM unset: mail comes from Sweatpants <no-reply@localhost>',
    ]);
    // the embedded MCP server is the installed server-everything, run by this node
    expect(embeddedMcpServer()).toEqual({
      name: 'everything',
      command: process.execPath,
      args: [expect.stringMatching(/@modelcontextprotocol\/server-everything\/dist\/index\.js$/), 'stdio'],
    });
  });

  it('reads the MCP servers from MCP_SERVERS, over stdio or Streamable HTTP; [] is none', () => {
    const servers = [
      { name: 'files', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv'] },
      {
        name: 'search',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer k' },
        timeoutMs: 5000,
      },
    ];
    expect(loadConfig({ MCP_SERVERS: JSON.stringify(servers), MCP_TIMEOUT_MS: '10000' })).toMatchObject({
      mcpServers: servers,
      mcpTimeoutMs: 10_000,
    });
    expect(loadConfig({ MCP_SERVERS: '[]' }).mcpServers).toEqual([]);
  });

  it('refuses MCP_SERVERS that is not a JSON array of servers, naming each entry and field', () => {
    expect(() => loadConfig({ MCP_SERVERS: '{"name":"x"' })).toThrow(/MCP_SERVERS: is not JSON/);
    expect(() => loadConfig({ MCP_SERVERS: '{"name":"x"}' })).toThrow(/MCP_SERVERS: must be a JSON array/);
    expect(() =>
      loadConfig({
        MCP_SERVERS: '[{"name":"a b","command":"x"},{"name":"web","url":"ftp://x"},{"name":"c"}]',
      }),
    ).toThrow(/MCP_SERVERS: \[0\]\.name: must be 1–32 letters.*\[1\]\.url: must be an http.*\[2\]\.command/);
    expect(() =>
      loadConfig({ MCP_SERVERS: '[{"name":"a","command":"x"},{"name":"a","url":"http://x"}]' }),
    ).toThrow(/\[1\]\.name: another server is named a/);
    expect(() => loadConfig({ MCP_TIMEOUT_MS: 'soon' })).toThrow(/MCP_TIMEOUT_MS: must be a whole number/);
  });

  it('reads an S3-compatible blob store from BLOB_STORE_URL, its credentials from the AWS variables', () => {
    const keys = { AWS_ACCESS_KEY_ID: 'minio', AWS_SECRET_ACCESS_KEY: 'minio-secret' };
    expect(
      loadConfig({
        BLOB_STORE_URL: 's3://photos?endpoint=http://minio:9000&region=eu-west-1&forcePathStyle=true',
        ...keys,
      }).blobStore,
    ).toEqual({
      kind: 's3',
      bucket: 'photos',
      prefix: '',
      endpoint: 'http://minio:9000',
      region: 'eu-west-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'minio', secretAccessKey: 'minio-secret', sessionToken: undefined },
    });
    expect(
      loadConfig({ BLOB_STORE_URL: 's3://my.bucket/sweatpants/blobs', ...keys }).blobStore,
    ).toMatchObject({
      bucket: 'my.bucket',
      prefix: 'sweatpants/blobs/',
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: false,
    });
  });

  it('refuses a BLOB_STORE_URL that is not a bucket, has unknown options, or comes without credentials', () => {
    const keys = { AWS_ACCESS_KEY_ID: 'k', AWS_SECRET_ACCESS_KEY: 's' };
    for (const bad of [
      'http://minio:9000/photos',
      's3://B',
      's3://photos?endpoint=minio:9000',
      's3://photos?forcePathStyle=yes',
      's3://photos?bucket=other',
      's3://key:secret@photos',
    ]) {
      expect(() => loadConfig({ BLOB_STORE_URL: bad, ...keys })).toThrow(/BLOB_STORE_URL: /);
    }
    expect(() => loadConfig({ BLOB_STORE_URL: 's3://photos' })).toThrow(/AWS_ACCESS_KEY_ID/);
  });

  it('reads a full environment; an empty variable counts as unset', () => {
    const config = loadConfig(
      {
        PORT: '8080',
        WORKER_PORT: '9100',
        DATABASE_URL: 'postgresql://app:secret@db:5432/sweatpants',
        REDIS_URL: 'rediss://cache:6380',
        ANTHROPIC_API_KEY: ' sk-test ',
        OFFLINE_MODEL_PACE_MS: '250',
        DATA_DIR: '/var/lib/sweatpants',
        ADMIN_EMAILS: ' Ada@Example.com, ,bob@example.com',
        WEB_DIST: '',
        JWT_SECRET: 'a-secret-of-at-least-thirty-two-characters',
        JWT_TTL_SECONDS: '600',
        WEB_ORIGIN: 'https://app.example.com, http://localhost:4200',
        RATE_LIMIT_HTTP_PER_MINUTE: '100',
        RATE_LIMIT_WS_PER_MINUTE: '200',
        LOG_LEVEL: 'warn',
        METRICS_TOKEN: 'a-scraper-token-of-some-length',
        GC_EVERY_MINUTES: '60',
        GC_REFLOG_EXPIRE_DAYS: '14',
        GC_REFLOG_EXPIRE_UNREACHABLE_DAYS: '7',
        GC_DRY_RUN: 'true',
        BLOB_STORE_URL: 's3://photos',
        AWS_ACCESS_KEY_ID: 'AKIA0000',
        AWS_SECRET_ACCESS_KEY: 'secret',
        AWS_SESSION_TOKEN: 'session',
        PUBLIC_URL: 'https://sweatpants.example.com/',
        PASSWORD_SIGNIN: 'off',
        OIDC_ISSUER: 'https://login.example.com/realms/corp',
        OIDC_CLIENT_ID: 'sweatpants',
        OIDC_CLIENT_SECRET: 'client-secret',
        OIDC_NAME: 'Corp SSO',
        OIDC_SCOPES: 'email profile  groups',
        OIDC_ADMIN_CLAIM: 'realm_access.roles',
        OIDC_ADMIN_VALUE: 'admin',
        SPEND_LIMIT_DAILY_USD: '2.50',
        SPEND_LIMIT_MONTHLY_USD: '40',
        SMTP_URL: 'smtps://mailer:secret@smtp.example.com:465',
      },
      '/srv/app',
    );
    expect(config).toMatchObject({
      port: 8080,
      workerPort: 9100,
      databaseUrl: 'postgresql://app:secret@db:5432/sweatpants',
      redisUrl: 'rediss://cache:6380',
      anthropicApiKey: 'sk-test',
      offlinePaceMs: 250,
      dataDir: '/var/lib/sweatpants',
      adminEmails: ['ada@example.com', 'bob@example.com'],
      webDist: '/srv/app/dist/apps/web/browser',
      jwtSecret: 'a-secret-of-at-least-thirty-two-characters',
      tokenTtlSeconds: 600,
      webOrigins: ['https://app.example.com', 'http://localhost:4200'],
      rateLimit: { httpPerMinute: 100, wsPerMinute: 200 },
      logLevel: 'warn',
      metricsToken: 'a-scraper-token-of-some-length',
      gc: { everyMinutes: 60, policy: { reachableDays: 14, unreachableDays: 7 }, dryRun: true },
      blobStore: { kind: 's3', bucket: 'photos', credentials: { sessionToken: 'session' } },
      publicUrl: 'https://sweatpants.example.com',
      passwordSignIn: false,
      oidc: {
        issuer: 'https://login.example.com/realms/corp',
        clientId: 'sweatpants',
        clientSecret: 'client-secret',
        name: 'Corp SSO',
        scopes: 'openid email profile groups',
        admin: { claim: 'realm_access.roles', value: 'admin' },
      },
      spendLimit: { dailyUsd: 2.5, monthlyUsd: 40 },
      mail: {
        smtpUrl: 'smtps://mailer:secret@smtp.example.com:465',
        from: 'Sweatpants <no-reply@sweatpants.example.com>',
      },
      unset: ['WEB_DIST', 'MCP_SERVERS', 'MCP_TIMEOUT_MS', 'MAIL_FROM'],
    });
  });

  it('takes MAIL_FROM as an address or a name and <address>', () => {
    expect(loadConfig({ MAIL_FROM: 'Tidy Team <hello@example.com>' }).mail.from).toBe(
      'Tidy Team <hello@example.com>',
    );
    expect(loadConfig({ MAIL_FROM: 'hello@example.com' }).mail.from).toBe('hello@example.com');
    for (const bad of ['hello', 'Tidy <not an address>', '<a@b.co> <c@d.co>']) {
      expect(() => loadConfig({ MAIL_FROM: bad })).toThrow(
        /MAIL_FROM: must be an address, or a name and <address>/,
      );
    }
    expect(() => loadConfig({ SMTP_URL: 'http://smtp.example.com' })).toThrow(
      /SMTP_URL: must be a URL starting with smtp:\/\/ or smtps:\/\//,
    );
    expect(() => loadConfig({ PUBLIC_URL: 'sweatpants.example.com' })).toThrow(/PUBLIC_URL/);
  });

  it('refuses sign-in settings that leave no way in, or half an admin rule', () => {
    expect(() => loadConfig({ PASSWORD_SIGNIN: 'off' })).toThrow(
      /PASSWORD_SIGNIN: off leaves no way to sign in/,
    );
    expect(() => loadConfig({ OIDC_ISSUER: 'https://login.example.com' })).toThrow(/OIDC_CLIENT_ID/);
    expect(() =>
      loadConfig({
        OIDC_ISSUER: 'https://login.example.com',
        OIDC_CLIENT_ID: 'x',
        OIDC_ADMIN_CLAIM: 'groups',
      }),
    ).toThrow(/set both OIDC_ADMIN_CLAIM and OIDC_ADMIN_VALUE/);
    expect(() => loadConfig({ PASSWORD_SIGNIN: 'no' })).toThrow(/PASSWORD_SIGNIN: must be on or off/);
  });

  it('names each bad variable and why, without echoing values', () => {
    const load = () =>
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://u:hunter2@h/db',
        REDIS_URL: 'x',
        ADMIN_EMAILS: 'a@b.co,nope',
        JWT_SECRET: 'short',
        WEB_ORIGIN: 'https://app.example.com/path',
        RATE_LIMIT_HTTP_PER_MINUTE: '0',
        SMTP_URL: 'smtp//mailer:hunter2@smtp',
      });
    expect(load).toThrow(ConfigError);
    const message = (() => {
      try {
        load();
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toMatch(/^invalid environment:/);
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'REDIS_URL',
      'ADMIN_EMAILS',
      'JWT_SECRET',
      'WEB_ORIGIN',
      'RATE_LIMIT_HTTP_PER_MINUTE',
    ])
      expect(message).toContain(`${name}`);
    expect(message).not.toContain('hunter2');
  });
});
