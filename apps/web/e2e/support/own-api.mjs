// An api of a scenario's own, for what the shared one is not set up for (short-lived tokens, an
// offline model that takes its time): started from its sources as `npm start` runs it, serving the
// web client the run built, on a throwaway database.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { freePort, throwawayDatabase } from '../../../../scripts/local-services.mjs';

const root = fileURLToPath(new URL('../../../..', import.meta.url));

/**
 * Starts the api with `env` over the usual environment (no Claude unless `env` names a key, no
 * Redis: the offline model and in-process jobs) on a database named after `name`. Resolves once it answers with its `base` url,
 * its `databaseUrl` (for what a scenario must arrange behind the product's back) and `stop()`, which ends it and drops the database.
 */
export async function startOwnApi(name, env = {}) {
  const db = await throwawayDatabase(`sweatpants_e2e_${name}`);
  // A port given in `env` when the api's address must be known before it starts (its PUBLIC_URL).
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const childEnv = {
    ...process.env,
    PORT: String(port),
    DATABASE_URL: db.url,
    WEB_DIST: join(root, 'dist/apps/web/browser'),
    SWC_NODE_PROJECT: join(root, 'apps/api/tsconfig.json'),
    LOG_LEVEL: 'warn',
    ...env,
  };
  // The offline model and in-process jobs, unless `env` itself asks for Claude (a fake Anthropic's).
  if (env.ANTHROPIC_API_KEY === undefined) delete childEnv.ANTHROPIC_API_KEY;
  delete childEnv.REDIS_URL;
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'apps/api/src/main.ts'], {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = [];
  const keep = (chunk) => output.push(chunk.toString());
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const stop = async () => {
    if (child.exitCode === null) {
      await new Promise((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.on('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      });
    }
    await db.drop();
  };
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const up = await fetch(`${base}/api/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) return { base, databaseUrl: db.url, stop };
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  await stop();
  throw new Error(`the ${name} api did not start:\n${output.join('').slice(-2000)}`);
}
