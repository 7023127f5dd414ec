import { networkInterfaces } from 'node:os';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { createApp } from '../src/app.factory';
import { loadConfig } from '../src/config/app-config';
import { isLoopback } from '../src/observability/metrics.controller';
import { createConversation, turn, until } from './support/flows';
import {
  call,
  errorOf,
  JWT_SECRET,
  register,
  registerAdmin,
  startApi,
  type TestApi,
} from './support/test-api';

const TOKEN = 'a-scraper-token-of-some-length';
const ADMIN = 'metrics-admin@example.com';

/** The value of one sample in Prometheus text (`name{labels} value`), or undefined. */
function sample(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('metrics for an operator (GET /api/metrics)', () => {
  let db: TestDatabase;
  let api: TestApi;

  beforeAll(async () => {
    db = await createTestDatabase('api_metrics');
    api = await startApi({
      DATABASE_URL: db.url,
      METRICS_TOKEN: TOKEN,
      ADMIN_EMAILS: ADMIN,
      GC_EVERY_MINUTES: 'off',
    });
  }, 30_000);

  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  const scrape = async (headers: Record<string, string> = {}) => {
    const res = await fetch(api.url('/api/metrics'), { headers });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };

  it('answers a scraper on this host, or one with the token; a wrong token is refused', async () => {
    const local = await scrape();
    expect(local.status).toBe(200);
    expect(local.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(local.text).toContain('# TYPE sweatpants_turn_duration_seconds histogram');
    expect(local.text).toContain('sweatpants_process_resident_memory_bytes');
    expect((await scrape({ authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    const wrong = await scrape({ authorization: 'Bearer not-the-token-at-all' });
    expect(wrong.status).toBe(403);
    expect(JSON.parse(wrong.text)).toEqual(errorOf('forbidden'));
  });

  it('tells loopback by the connection’s own address', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])
      expect(isLoopback(address)).toBe(true);
    for (const address of ['10.0.0.5', '::ffff:10.0.0.5', '192.168.1.2', 'fe80::1', '', undefined])
      expect(isLoopback(address)).toBe(false);
  });

  it('shows a turn: its duration, the model calls, the answered questions, the open runner', async () => {
    const before = (await scrape()).text;
    const turnsBefore = sample(before, 'sweatpants_turn_duration_seconds_count') ?? 0;
    const user = await register(api, 'measured');
    const { id } = await createConversation(api, user.token);
    await turn(api, user.token, id, 'the hallway shelf');
    // The runner's status reaches the metrics as it goes to waiting: asked until it has.
    const after = await until(
      async () => (await scrape()).text,
      (text) => (sample(text, 'sweatpants_turn_duration_seconds_count') ?? 0) > turnsBefore,
    );
    expect(sample(after, 'sweatpants_open_runners')).toBeGreaterThanOrEqual(1);
    expect(
      sample(after, 'sweatpants_model_call_duration_seconds_count', '{model="offline",outcome="ok"}'),
    ).toBeGreaterThanOrEqual(1);
    // What the calls cost, in tokens, by how they are billed (the offline model estimates them)
    expect(sample(after, 'sweatpants_model_tokens_total', '{model="offline",kind="input"}')).toBeGreaterThan(
      0,
    );
    expect(sample(after, 'sweatpants_model_tokens_total', '{model="offline",kind="output"}')).toBeGreaterThan(
      0,
    );
    // The agent's questions the turn answered (the first answer to each), by type.
    const waits = after
      .split('\n')
      .filter((l) => l.startsWith('sweatpants_elicit_wait_seconds_count{type="'))
      .reduce((n, l) => n + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
    expect(waits).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'sweatpants_leases_held')).toBe(0); // no Redis: no leases
  });

  it('counts job outcomes and what gc removed, and the queue by state', async () => {
    const admin = (await registerAdmin(api, db.url, ADMIN, 'Ops')).token;
    expect((await call(api, 'POST', '/api/admin/gc', { token: admin, body: {} })).status).toBe(202);
    const text = await until(
      async () => (await scrape()).text,
      (t) => (sample(t, 'sweatpants_job_outcomes_total', '{job="tree.gc",outcome="completed"}') ?? 0) >= 1,
    );
    expect(sample(text, 'sweatpants_gc_removed_total', '{kind="nodes"}')).toBe(0);
    expect(sample(text, 'sweatpants_queue_jobs', '{state="completed"}')).toBeGreaterThanOrEqual(1);
  });

  it('refuses a caller from another host without the token', async () => {
    // Reachable only where this machine has an address besides loopback; the rule itself is above.
    const external = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
    if (!external) return;
    const app = await createApp(
      loadConfig({
        PORT: '0',
        JWT_SECRET,
        WEB_DIST: '/nonexistent',
        DATABASE_URL: db.url,
        GC_EVERY_MINUTES: 'off',
      }),
      { logger: false },
    );
    await app.listen(0, '0.0.0.0');
    try {
      const port = new URL((await app.getUrl()).replace('[::]', '127.0.0.1')).port;
      const res = await fetch(`http://${external}:${port}/api/metrics`);
      expect(res.status).toBe(403);
    } finally {
      await app.close();
    }
  });
});
