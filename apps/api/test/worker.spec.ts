import { randomBytes } from 'node:crypto';
import type { GcRunList } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { loadConfig } from '../src/config/app-config';
import { createWorker } from '../src/worker.factory';
import { until } from './support/flows';
import { call, JWT_SECRET, registerAdmin, startApi, type TestApi } from './support/test-api';

const REDIS_URL = 'redis://127.0.0.1:6379';
const ADMIN = 'ops@worker.example';

/**
 * The worker process as the hosted shape runs it: the apis only enqueue jobs (WORKER=off), the
 * worker runs them, and an operator sees them in the worker's own metrics and liveness, since the
 * apis never learn how a job it ran ended.
 */
describe('the worker process, seen from outside', () => {
  let db: TestDatabase;
  let api: TestApi | undefined;
  let worker: NestExpressApplication | undefined;
  let workerUrl = '';
  const saved = { ...process.env };

  beforeAll(async () => {
    db = await createTestDatabase('api_worker');
    // The cluster settings come from the process environment; a prefix of this run's own.
    Object.assign(process.env, { REDIS_PREFIX: `worker-${randomBytes(4).toString('hex')}`, WORKER: 'off' });
    api = await startApi({ DATABASE_URL: db.url, REDIS_URL, ADMIN_EMAILS: ADMIN, GC_EVERY_MINUTES: 'off' });
    process.env['WORKER'] = 'on';
    worker = await createWorker(
      loadConfig({ DATABASE_URL: db.url, REDIS_URL, JWT_SECRET, WORKER_PORT: '0', GC_EVERY_MINUTES: 'off' }),
      { logger: false },
    );
    await worker.listen(0, '127.0.0.1');
    workerUrl = (await worker.getUrl()).replace('[::1]', '127.0.0.1');
  }, 30_000);

  afterAll(async () => {
    await worker?.close();
    await api?.close();
    process.env = saved;
    await db?.drop();
  });

  it('answers liveness, and counts the jobs it ran by outcome in its own metrics', async () => {
    expect(await (await fetch(`${workerUrl}/api/health/live`)).json()).toEqual({ status: 'ok' });

    const admin = { body: await registerAdmin(api!, db.url, ADMIN, 'Ops') };
    const queued = await call(api!, 'POST', '/api/admin/gc', {
      token: admin.body.token,
      body: { dryRun: true },
    });
    expect(queued.status).toBe(202);
    const runs = await until(
      async () =>
        (await call<GcRunList>(api!, 'GET', '/api/admin/gc', { token: admin.body.token })).body.items,
      (items) => items.length === 1 && items[0]!.finishedAt !== null,
    );
    expect(runs[0]).toMatchObject({ dryRun: true, error: null });

    // The outcome is counted where the job ran: the worker, not the api that queued it.
    const scraped = await until(
      async () => (await fetch(`${workerUrl}/api/metrics`)).text(),
      (text) => /sweatpants_job_outcomes_total\{job="tree.gc",outcome="completed"\} 1/.test(text),
    );
    expect(scraped).toContain('sweatpants_process_resident_memory_bytes');
    const onApi = await (await fetch(api!.url('/api/metrics'))).text();
    expect(onApi).not.toMatch(/sweatpants_job_outcomes_total\{job="tree.gc"/);
  }, 30_000);
});
