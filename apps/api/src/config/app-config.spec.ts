import { ConfigError, describeDefaults, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('puts every default in force for an empty environment, and says so', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toEqual({
      port: 3000,
      databaseUrl: undefined,
      redisUrl: undefined,
      anthropicApiKey: undefined,
      dataDir: '/srv/app/data',
      adminEmails: [],
      webDist: '/srv/app/dist/apps/web/browser',
      jwtSecret: undefined,
      tokenTtlSeconds: 3600,
      webOrigins: ['http://localhost:4200'],
      rateLimit: { httpPerMinute: 3000, wsPerMinute: 3000 },
      unset: [
        'PORT',
        'DATABASE_URL',
        'REDIS_URL',
        'ANTHROPIC_API_KEY',
        'DATA_DIR',
        'ADMIN_EMAILS',
        'WEB_DIST',
        'JWT_SECRET',
        'JWT_TTL_SECONDS',
        'WEB_ORIGIN',
        'RATE_LIMIT_HTTP_PER_MINUTE',
        'RATE_LIMIT_WS_PER_MINUTE',
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
    ]);
  });

  it('reads a full environment; an empty variable counts as unset', () => {
    const config = loadConfig(
      {
        PORT: '8080',
        DATABASE_URL: 'postgresql://app:secret@db:5432/sweatpants',
        REDIS_URL: 'rediss://cache:6380',
        ANTHROPIC_API_KEY: ' sk-test ',
        DATA_DIR: '/var/lib/sweatpants',
        ADMIN_EMAILS: ' Ada@Example.com, ,bob@example.com',
        WEB_DIST: '',
        JWT_SECRET: 'a-secret-of-at-least-thirty-two-characters',
        JWT_TTL_SECONDS: '600',
        WEB_ORIGIN: 'https://app.example.com, http://localhost:4200',
        RATE_LIMIT_HTTP_PER_MINUTE: '100',
        RATE_LIMIT_WS_PER_MINUTE: '200',
      },
      '/srv/app',
    );
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgresql://app:secret@db:5432/sweatpants',
      redisUrl: 'rediss://cache:6380',
      anthropicApiKey: 'sk-test',
      dataDir: '/var/lib/sweatpants',
      adminEmails: ['ada@example.com', 'bob@example.com'],
      webDist: '/srv/app/dist/apps/web/browser',
      jwtSecret: 'a-secret-of-at-least-thirty-two-characters',
      tokenTtlSeconds: 600,
      webOrigins: ['https://app.example.com', 'http://localhost:4200'],
      rateLimit: { httpPerMinute: 100, wsPerMinute: 200 },
      unset: ['WEB_DIST'],
    });
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
