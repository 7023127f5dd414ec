import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { createConversation, turn } from './support/flows';
import { register, startApi, type TestApi } from './support/test-api';

/**
 * Prometheus, checked by Prometheus (issue 33): the exposition at /api/metrics as `promtool check
 * metrics` reads it (names, help, types, units, counters' `_total`), and deploy/'s scrape config
 * and alert rules as `promtool check config` and `check rules` do. promtool is Debian's
 * `prometheus` package (.ci/run installs it); where it is missing these are skipped, saying so.
 */
const DEPLOY = resolve(__dirname, '../../../deploy/prometheus');

const promtoolFound = spawnSync('promtool', ['--version'], { encoding: 'utf8' }).status === 0;
if (!promtoolFound) {
  console.warn(
    'prometheus.spec: SKIPPED: promtool is not installed (apt-get install prometheus); the exposition and deploy/prometheus are unchecked',
  );
}
const describeWithPromtool = promtoolFound ? describe : describe.skip;

/** What promtool says of `args` (with `input` on stdin), and whether it passed. */
function promtool(args: string[], input?: string): { ok: boolean; said: string } {
  const run = spawnSync('promtool', args, { encoding: 'utf8', ...(input !== undefined ? { input } : {}) });
  return { ok: run.status === 0, said: `${run.stdout}${run.stderr}` };
}

describeWithPromtool('Prometheus, checked by promtool', () => {
  let db: TestDatabase;
  let api: TestApi;

  beforeAll(async () => {
    db = await createTestDatabase('api_prometheus');
    // A budget of nothing, so a refusal is counted too.
    api = await startApi({ DATABASE_URL: db.url, SPEND_LIMIT_DAILY_USD: '0' });
    const { token } = await register(api, 'scraped');
    const c = await createConversation(api, token);
    await turn(api, token, c.id, 'hello');
  }, 30_000);
  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  it('passes `promtool check metrics` on the live exposition, every series of ours in it', async () => {
    const exposition = await (await fetch(api.url('/api/metrics'))).text();
    expect(exposition).toMatch(/^sweatpants_spend_refusals_total\{reason="daily"\} [1-9]\d*$/m);
    expect(exposition).toContain('# TYPE sweatpants_model_spend_dollars_total counter');

    const checked = promtool(['check', 'metrics'], exposition);

    expect(checked).toEqual({ ok: true, said: '' });
  });

  it("passes `promtool check config` and `check rules` on deploy's scrape config and alerts", () => {
    const config = promtool(['check', 'config', resolve(DEPLOY, 'prometheus.yml')]);
    expect(config.said).toContain('SUCCESS');
    expect(config.ok).toBe(true);

    const rules = promtool(['check', 'rules', resolve(DEPLOY, 'alerts.yml')]);
    expect(rules.ok).toBe(true);
    expect(rules.said).toMatch(/SUCCESS: 5 rules found/);
  });

  it('alerts only on series the exposition has', async () => {
    const exposition = await (await fetch(api.url('/api/metrics'))).text();
    const rules = readFileSync(resolve(DEPLOY, 'alerts.yml'), 'utf8');
    const used = new Set([...rules.matchAll(/\b(sweatpants_[a-z_]+?)(?:_bucket)?\b/g)].map((m) => m[1]!));
    for (const name of used) expect([name, exposition.includes(`# TYPE ${name} `)]).toEqual([name, true]);
  });
});
