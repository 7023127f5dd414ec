import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { call, errorOf, register, registerAdmin, startApi, type TestApi } from './support/test-api';

const REDIS_URL = 'redis://127.0.0.1:6379';
const ADMIN = 'ops@example.com';

describe('the job queues for admins (bull-board at /api/admin/queues)', () => {
  let db: TestDatabase;
  let api: TestApi;
  let embedded: TestApi;
  let admin: string;
  let user: string;

  beforeAll(async () => {
    db = await createTestDatabase('api_queue_dashboard');
    api = await startApi({ DATABASE_URL: db.url, REDIS_URL, ADMIN_EMAILS: ADMIN, GC_EVERY_MINUTES: 'off' });
    embedded = await startApi({ DATABASE_URL: db.url, ADMIN_EMAILS: ADMIN, GC_EVERY_MINUTES: 'off' });
    admin = (await registerAdmin(api, db.url, ADMIN, 'Ops')).token;
    user = (await register(api, 'curious')).token;
  }, 30_000);

  afterAll(async () => {
    await api?.close();
    await embedded?.close();
    await db?.drop();
  });

  const page = (base: TestApi, path: string, headers: Record<string, string> = {}) =>
    fetch(base.url(path), { headers, redirect: 'manual' });

  it('refuses anyone but an admin, never showing the dashboard', async () => {
    const anonymous = await page(api, '/api/admin/queues/');
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual(errorOf('unauthenticated'));
    const plain = await page(api, '/api/admin/queues/', { authorization: `Bearer ${user}` });
    expect(plain.status).toBe(403);
    expect(await plain.json()).toEqual(errorOf('forbidden'));
    const forged = await page(api, '/api/admin/queues/api/queues', { cookie: 'sp_queues=not-a-token' });
    expect(forged.status).toBe(401);
    expect((await call(api, 'POST', '/api/admin/queues/session', { token: user })).status).toBe(403);
  });

  it('opens for an admin through the cookie the session route sets, and lists the compaction queue', async () => {
    const session = await fetch(api.url('/api/admin/queues/session'), {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(session.status).toBe(204);
    const setCookie = session.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(
      /^sp_queues=[^;]+; Path=\/api\/admin\/queues; Max-Age=900; HttpOnly; SameSite=Strict$/,
    );
    const cookie = setCookie.split(';')[0]!;
    const html = await page(api, '/api/admin/queues/', { cookie });
    expect(html.status).toBe(200);
    expect(await html.text()).toContain('Sweatpants jobs');
    const queues = await page(api, '/api/admin/queues/api/queues', { cookie });
    expect(queues.status).toBe(200);
    const body = (await queues.json()) as { queues: { name: string }[] };
    expect(body.queues.map((q) => q.name)).toEqual(['compaction']);
    // A token taken back closes the dashboard too.
    expect((await call(api, 'POST', '/api/auth/sign-out-everywhere', { token: admin })).status).toBe(204);
    expect((await page(api, '/api/admin/queues/api/queues', { cookie })).status).toBe(401);
  });

  it('says there is none when jobs run in-process', async () => {
    const res = await page(embedded, '/api/admin/queues/');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      error: { code: 'not_found', message: expect.stringMatching(/in-process/) },
    });
  });
});
