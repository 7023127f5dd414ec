// `npm run e2e`: the web client in Debian's Chromium against the real api. Builds the client
// when its build is missing or stale (scripts/start.mjs decides), creates a fresh PostgreSQL
// database, starts the api on a free port with the offline model, runs every scenario in
// apps/web/e2e/*.e2e.mjs, and ends with one line, `e2e: N passed, M failed`.
//
// E2E_FILTER=<text> runs only the scenarios whose name or file name contains it; E2E_KEEP_DB=1 keeps the database.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { chromium } from 'playwright-core';

import { freePort, throwawayDatabase } from './local-services.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const specDir = join(root, 'apps/web/e2e');
const shotDir = join(root, 'tmp/e2e-screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const ADMIN_EMAIL = 'admin-e2e@example.com';
const SCENARIO_TIMEOUT_MS = Number(process.env.E2E_TIMEOUT_MS ?? 120_000);
const STARTUP_TIMEOUT_MS = 240_000;

const log = (message) => console.log(`[e2e] ${message}`);

/**
 * Starts `node scripts/start.mjs` (which builds the client if needed) and waits for its health.
 * Its mail goes to `smtpUrl` (the run's mail sink); the mails' links are on PUBLIC_URL's default,
 * `http://localhost:<port>` (passkeys need a host name, not 127.0.0.1).
 */
async function startApi(port, databaseUrl, smtpUrl) {
  const env = {
    ...process.env,
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    SMTP_URL: smtpUrl,
    ADMIN_EMAILS: ADMIN_EMAIL,
    // A conversation's agent is put to sleep after a few seconds unused, not two minutes: every
    // scenario then also walks away and comes back now and then, as people do, and the
    // walking-away scenarios wait for it (E2E_RUNNER_IDLE_MS overrides).
    RUNNER_IDLE_MS: process.env.E2E_RUNNER_IDLE_MS ?? '4000',
  };
  delete env.ANTHROPIC_API_KEY;
  delete env.REDIS_URL;
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = [];
  const keep = (chunk) => {
    output.push(chunk.toString());
    if (output.length > 400) output.shift();
    if (process.env.E2E_VERBOSE) process.stdout.write(chunk);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = null;
  child.on('exit', (code) => (exited = code));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited !== null)
      throw new Error(`the api exited (${exited}) before it was healthy:\n${output.join('')}`);
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok) {
        const index = await fetch(`${base}/`);
        if (!index.ok) throw new Error('the api is up but serves no web client (did the build fail?)');
        return { child, base, output };
      }
    } catch (error) {
      if (error instanceof Error && error.message.includes('no web client')) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  child.kill('SIGTERM');
  throw new Error(`the api was not healthy within ${STARTUP_TIMEOUT_MS / 1000}s:\n${output.join('')}`);
}

function stopApi(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

async function loadScenarios() {
  const filter = process.env.E2E_FILTER;
  const files = readdirSync(specDir)
    .filter((f) => f.endsWith('.e2e.mjs'))
    .sort();
  // A filter that names files loads only those (a scenario file being edited elsewhere is not read).
  const named = filter ? files.filter((f) => f.includes(filter)) : [];
  const all = [];
  for (const file of named.length > 0 ? named : files) {
    const mod = await import(pathToFileURL(join(specDir, file)).href);
    for (const scenario of mod.scenarios ?? []) all.push({ ...scenario, file });
  }
  return filter && named.length === 0 ? all.filter((s) => s.name.includes(filter)) : all;
}

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000}s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function main() {
  mkdirSync(shotDir, { recursive: true });
  const scenarios = await loadScenarios();
  const { createContext } = await import(pathToFileURL(join(specDir, 'support/context.mjs')).href);
  const { AccessibilityAudit } = await import(pathToFileURL(join(specDir, 'support/accessibility.mjs')).href);
  const { startMailSink } = await import(pathToFileURL(join(specDir, 'support/mail-sink.mjs')).href);
  const audit = new AccessibilityAudit();
  const db = await throwawayDatabase('sweatpants_e2e');
  log(`database ${db.name}`);
  let api = null;
  let browser = null;
  let mail = null;
  let passed = 0;
  let failed = 0;
  try {
    const port = await freePort();
    log(`starting the api on port ${port} (builds the web client first if it is stale)`);
    mail = await startMailSink();
    api = await startApi(port, db.url, mail.url);
    log(`api healthy at ${api.base}`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    for (const scenario of scenarios) {
      const started = Date.now();
      const ctx = createContext({
        browser,
        base: api.base,
        shotDir,
        adminEmail: ADMIN_EMAIL,
        mail,
        scenario: scenario.name,
        audit,
      });
      try {
        await withTimeout(scenario.run(ctx), SCENARIO_TIMEOUT_MS, scenario.name);
        passed++;
        log(`✓ ${scenario.name} (${((Date.now() - started) / 1000).toFixed(1)}s)`);
      } catch (error) {
        failed++;
        await ctx.failureShot().catch(() => undefined);
        log(`✗ ${scenario.name} (${scenario.file})`);
        console.log(
          `    ${(error instanceof Error ? (error.stack ?? error.message) : String(error)).split('\n').slice(0, 8).join('\n    ')}`,
        );
      } finally {
        await ctx.close().catch(() => undefined);
      }
    }
  } catch (error) {
    // Scenarios that never ran count as failed: the api or the browser would not start.
    failed = Math.max(1, scenarios.length - passed);
    console.error(`[e2e] could not run: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await browser?.close().catch(() => undefined);
    if (api) await stopApi(api.child);
    await mail?.close();
    if (!process.env.E2E_KEEP_DB) await db.drop().catch((e) => log(`could not drop ${db.name}: ${e}`));
  }
  // What axe said of every page and state, beside the screenshots it was said of.
  writeFileSync(join(shotDir, 'axe-results.json'), JSON.stringify(audit.entries, null, 2));
  const { checked, byImpact } = audit.summary();
  log(`axe-core: ${checked} page states checked; violations by impact ${JSON.stringify(byImpact)}`);
  console.log(`e2e: ${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

await main();
