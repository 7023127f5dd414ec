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
      unset: [
        'PORT',
        'DATABASE_URL',
        'REDIS_URL',
        'ANTHROPIC_API_KEY',
        'DATA_DIR',
        'ADMIN_EMAILS',
        'WEB_DIST',
      ],
    });
    expect(describeDefaults(config)).toEqual([
      'PORT unset: listening on 3000',
      'DATA_DIR unset: local data goes in /srv/app/data',
      'ADMIN_EMAILS unset: no account is an admin',
      'WEB_DIST unset: the web client is served from /srv/app/dist/apps/web/browser',
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
    for (const name of ['PORT', 'DATABASE_URL', 'REDIS_URL', 'ADMIN_EMAILS'])
      expect(message).toContain(`${name}`);
    expect(message).not.toContain('hunter2');
  });
});
