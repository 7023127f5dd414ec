import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import { HealthSchema } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { createApp } from '../src/app.factory';
import { loadConfig } from '../src/config/app-config';

const REDIS_URL = 'redis://127.0.0.1:6379';
/** A test that boots and closes a second app (and, with Redis away, waits out a health probe). */
const BOOT_TIMEOUT_MS = 30_000;

interface Running {
  app: INestApplication;
  url: (path: string) => string;
}

/** The real app module on an ephemeral port, configured as main.ts would be from `env`. */
async function boot(env: Record<string, string>): Promise<Running> {
  const app = await createApp(loadConfig({ PORT: '0', ...env }), { logger: false });
  await app.listen(0, '127.0.0.1');
  const base = await app.getUrl();
  return { app, url: (path) => `${base}${path}` };
}

function expectErrorShape(body: unknown, code: string): void {
  expect(body).toEqual({ error: { code, message: expect.any(String) } });
}

describe('api shell', () => {
  let db: TestDatabase;
  let webDist: string;
  let api: Running;

  beforeAll(async () => {
    db = await createTestDatabase('api_health');
    webDist = await mkdtemp(join(tmpdir(), 'sp-web-'));
    await writeFile(join(webDist, 'index.html'), '<!doctype html><title>client</title>');
    await writeFile(join(webDist, 'main.js'), 'console.log(1)');
    api = await boot({ DATABASE_URL: db.url, REDIS_URL, WEB_DIST: webDist });
  }, BOOT_TIMEOUT_MS);

  afterAll(async () => {
    await api?.app.close();
    await db?.drop();
    if (webDist) await rm(webDist, { recursive: true, force: true });
  });

  it('reports health: db ok, queue through Redis, offline model', async () => {
    const res = await fetch(api.url('/api/health'));
    expect(res.status).toBe(200);
    const body: unknown = await res.json();
    expect(HealthSchema.parse(body)).toEqual({ status: 'ok', db: 'ok', queue: 'ok', model: 'offline' });
  });

  it('is live, and ready with every migration applied and Redis answering', async () => {
    const live = await fetch(api.url('/api/health/live'));
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(api.url('/api/health/ready'));
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', db: 'ok', migrations: 'ok', queue: 'ok' });
  });

  it('is not ready (503, naming why) while a migration this build knows is not applied, and live all along', async () => {
    // As a process started against a schema another process has not finished migrating would see.
    const sql = new Client({ connectionString: db.url });
    await sql.connect();
    const [latest] = (
      await sql.query<{ name: string }>('SELECT name FROM migrations ORDER BY id DESC LIMIT 1')
    ).rows;
    await sql.query('DELETE FROM migrations WHERE name = $1', [latest!.name]);
    try {
      const ready = await fetch(api.url('/api/health/ready'));
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({
        error: {
          code: 'unavailable',
          message: 'not ready: 1 migration(s) not applied',
          details: { db: 'ok', migrations: 'pending', queue: 'ok' },
        },
      });
      expect((await fetch(api.url('/api/health/live'))).status).toBe(200);
    } finally {
      await sql.query(`INSERT INTO migrations ("timestamp", name) VALUES ($1, $2)`, [
        Number(/\d+$/.exec(latest!.name)![0]),
        latest!.name,
      ]);
      await sql.end();
    }
    expect((await fetch(api.url('/api/health/ready'))).status).toBe(200);
  });

  it('answers an unknown api route with a 404 in the error shape', async () => {
    const res = await fetch(api.url('/api/no-such-thing'));
    expect(res.status).toBe(404);
    expectErrorShape(await res.json(), 'not_found');
  });

  it('answers malformed JSON with a 400 in the error shape, not a 500', async () => {
    const res = await fetch(api.url('/api/health'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"text": oops',
    });
    expect(res.status).toBe(400);
    expectErrorShape(await res.json(), 'invalid_request');
  });

  it('answers a body over 25mb with a 413 too_large', async () => {
    const res = await fetch(api.url('/api/health'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: 'a'.repeat(26 * 1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    expectErrorShape(await res.json(), 'too_large');
    // 26 MB built and sent: seconds on a loaded CI machine, not jest's default five
  }, 30_000);

  it('serves the web client, with index.html for deep links but not for missing assets', async () => {
    const deepLink = await fetch(api.url('/conversations/abc'));
    expect(deepLink.status).toBe(200);
    expect(await deepLink.text()).toContain('<title>client</title>');
    expect(await (await fetch(api.url('/main.js'))).text()).toBe('console.log(1)');
    const missing = await fetch(api.url('/missing.js'));
    expect(missing.status).toBe(404);
    expectErrorShape(await missing.json(), 'not_found');
  }, 30_000);

  it(
    'reports in-process jobs when REDIS_URL is unset',
    async () => {
      const other = await boot({ DATABASE_URL: db.url });
      try {
        const res = await fetch(other.url('/api/health'));
        expect(await res.json()).toEqual({ status: 'ok', db: 'ok', queue: 'in-process', model: 'offline' });
      } finally {
        await other.app.close();
      }
    },
    BOOT_TIMEOUT_MS,
  );

  it(
    'answers 503 in the error shape when Redis is down',
    async () => {
      // Port 1: nothing listens there, so every connection is refused at once.
      const other = await boot({
        DATABASE_URL: db.url,
        REDIS_URL: 'redis://127.0.0.1:1',
        ANTHROPIC_API_KEY: 'k',
      });
      try {
        const res = await fetch(other.url('/api/health'));
        expect(res.status).toBe(503);
        expect(await res.json()).toEqual({
          error: {
            code: 'unavailable',
            message: expect.any(String),
            details: { db: 'ok', queue: 'down', model: 'claude' },
          },
        });
      } finally {
        await other.app.close();
      }
    },
    BOOT_TIMEOUT_MS,
  );

  it(
    'closes without an unhandled rejection while Redis accepts connections but never answers',
    async () => {
      // A Redis that never answers keeps every connection short of ready, so what the api sent
      // waits in ioredis' queue until closing the connection rejects it.
      const held: Socket[] = [];
      const silent = createServer((socket) => held.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const { port } = silent.address() as AddressInfo;
      const rejections: unknown[] = [];
      const onRejection = (reason: unknown) => rejections.push(reason);
      process.on('unhandledRejection', onRejection);
      try {
        const other = await boot({
          DATABASE_URL: db.url,
          REDIS_URL: `redis://127.0.0.1:${port}`,
          ANTHROPIC_API_KEY: 'k',
        });
        await other.app.close();
        // Rejections are reported after the microtasks of the turn that made them.
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(rejections).toEqual([]);
      } finally {
        process.off('unhandledRejection', onRejection);
        for (const socket of held) socket.destroy();
        await new Promise((resolve) => silent.close(resolve));
      }
    },
    BOOT_TIMEOUT_MS,
  );
});
