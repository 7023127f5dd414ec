// `npm run test:reliability`: issue 7's failure and load scenarios against real processes (two
// apis and a worker from scripts/cluster.mjs) on the real PostgreSQL and a Redis of the suite's
// own. Prints each scenario's figures and a last line `reliability: N of M scenarios held`.
//
// RELIABILITY_ONLY=2,5 runs only those scenarios; RELIABILITY_SEED fixes the generators' seed;
// CLUSTER_VERBOSE=1 echoes the processes' logs (each run's logs are in tmp/cluster-*/ anyway).
import { NotReady, type Scenario, type ScenarioContext, type ScenarioOutcome } from './scenario';
import { fanOutScenario } from './scenarios/fan-out.scenario';
import { takeoverScenario } from './scenarios/takeover.scenario';
import { workerKillScenario } from './scenarios/worker-kill.scenario';
import { redisRestartScenario } from './scenarios/redis-restart.scenario';
import { loadScenario } from './scenarios/load.scenario';
import { fuzzScenario } from './scenarios/fuzz.scenario';
import { concurrentTabsScenario } from './scenarios/concurrent-tabs.scenario';
import { gcUnderLoadScenario } from './scenarios/gc-under-load.scenario';
import { accountDeletionScenario } from './scenarios/account-deletion.scenario';
import { startCluster, type RunningCluster } from './support/cluster-handle';
import { PrivateRedis } from './support/private-redis';
import { ADMIN_EMAIL } from './support/session';

const SCENARIOS: Scenario[] = [
  fanOutScenario,
  takeoverScenario,
  workerKillScenario,
  redisRestartScenario,
  loadScenario,
  fuzzScenario,
  concurrentTabsScenario,
  gcUnderLoadScenario,
  accountDeletionScenario,
];

/** The settings every cluster of the suite runs with: short leases and job locks, so takeovers are quick. */
const SUITE_ENV = {
  ADMIN_EMAILS: ADMIN_EMAIL,
  LEASE_MS: '2000',
  JOB_LOCK_MS: '2000',
  ANTHROPIC_API_KEY: undefined,
};

async function runOne(scenario: Scenario, redis: PrivateRedis, seed: number): Promise<ScenarioOutcome> {
  const clusters: RunningCluster[] = [];
  const context: ScenarioContext = {
    redisUrl: redis.url,
    seed,
    log: (message) => console.log(`    ${message}`),
    startCluster: async (options = {}) => {
      const cluster = await startCluster({
        redisUrl: redis.url,
        ...options,
        env: { ...SUITE_ENV, ...options.env },
      });
      clusters.push(cluster);
      return cluster;
    },
  };
  try {
    return await scenario.run(context);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      held: false,
      figures: {},
      notes: [
        error instanceof NotReady
          ? `cannot run yet: ${why}`
          : `failed: ${why.split('\n').slice(0, 12).join('\n      ')}`,
      ],
    };
  } finally {
    for (const cluster of clusters) {
      await cluster
        .stopAll()
        .catch((e: unknown) => console.log(`    (stopping a cluster failed: ${String(e)})`));
      console.log(`    logs: ${cluster.logDir}`);
    }
  }
}

async function main(): Promise<void> {
  const only = (process.env['RELIABILITY_ONLY'] ?? '')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => n > 0);
  const seed = Number(process.env['RELIABILITY_SEED'] ?? 20_261_122);
  const chosen = SCENARIOS.filter((s) => only.length === 0 || only.includes(s.id));
  const redis = await PrivateRedis.start();
  console.log(`reliability: seed ${seed}, private Redis on ${redis.url}`);
  let held = 0;
  try {
    for (const scenario of chosen) {
      console.log(`\n${scenario.id}. ${scenario.name}`);
      const started = Date.now();
      const outcome = await runOne(scenario, redis, seed + scenario.id);
      for (const [name, value] of Object.entries(outcome.figures)) console.log(`    ${name}: ${value}`);
      for (const note of outcome.notes) console.log(`    ! ${note}`);
      console.log(`  ${outcome.held ? 'held' : 'NOT HELD'} (${Math.round((Date.now() - started) / 1000)}s)`);
      if (outcome.held) held++;
    }
  } finally {
    await redis.down();
  }
  console.log(`\nreliability: ${held} of ${chosen.length} scenarios held`);
  process.exitCode = held === chosen.length ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  console.log(`reliability: 0 of ${SCENARIOS.length} scenarios held`);
  process.exit(1);
});
