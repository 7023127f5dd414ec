// `node deploy/check-compose.mjs`: what `docker compose config` would catch in docker-compose.yml,
// checked without Docker (this machine has no engine or compose plugin), plus the hosted shape's
// own rules: every reference resolves (depends_on, volumes, build targets, nginx upstreams, files
// the Dockerfile copies), every depends_on `service_healthy` has a health check to wait on, Redis
// never evicts, and the apis are health-checked on GET /api/health/ready. Prints each problem and exits 1
// if there is one. Not checked: image names on a registry, that the images build, Compose's full
// schema (unknown keys), and variable interpolation beyond `${NAME}` / `${NAME:-default}`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { parse } from 'yaml';

const root = fileURLToPath(new URL('..', import.meta.url));
const problems = [];
const problem = (message) => problems.push(message);

const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true });
const services = compose.services ?? {};
const volumes = Object.keys(compose.volumes ?? {});
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
const stages = [...dockerfile.matchAll(/^FROM\s+\S+\s+AS\s+(\S+)/gim)].map((m) => m[1]);
const CONDITIONS = ['service_started', 'service_healthy', 'service_completed_successfully'];

// Compose accepts only ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?err} and $$.
const text = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
for (const m of text.matchAll(/\$\{([^}]*)\}/g)) {
  if (!/^[A-Za-z_][A-Za-z0-9_]*((:?[-?+]).*)?$/.test(m[1])) problem(`bad interpolation \${${m[1]}}`);
}

const hasHealthcheck = (service) => service.healthcheck && !service.healthcheck.disable;
const commandOf = (service) =>
  Array.isArray(service.command) ? service.command : String(service.command ?? '').split(/\s+/);

for (const [name, service] of Object.entries(services)) {
  if (!service.image && !service.build) problem(`${name}: neither image nor build`);
  const build = typeof service.build === 'string' ? { context: service.build } : service.build;
  if (build?.target && !stages.includes(build.target)) {
    problem(`${name}: build target ${build.target} is not a stage of the Dockerfile (${stages.join(', ')})`);
  }
  const dependsOn = Array.isArray(service.depends_on)
    ? Object.fromEntries(service.depends_on.map((d) => [d, { condition: 'service_started' }]))
    : (service.depends_on ?? {});
  for (const [dep, { condition = 'service_started' } = {}] of Object.entries(dependsOn)) {
    if (!services[dep]) problem(`${name}: depends_on ${dep}, which is not a service`);
    else if (!CONDITIONS.includes(condition)) problem(`${name}: depends_on ${dep} with unknown ${condition}`);
    else if (condition === 'service_healthy' && !hasHealthcheck(services[dep])) {
      problem(`${name}: waits for ${dep} to be healthy, but ${dep} has no health check`);
    }
  }
  for (const mount of service.volumes ?? []) {
    const source = typeof mount === 'string' ? mount.split(':')[0] : mount.source;
    if (source.startsWith('.') || source.startsWith('/')) {
      if (!existsSync(join(root, source))) problem(`${name}: bind mount ${source} does not exist`);
    } else if (!volumes.includes(source)) {
      problem(`${name}: volume ${source} is not declared under volumes`);
    }
  }
  for (const port of service.ports ?? []) {
    if (!/^(\$\{[^}]+\}|\d+):\d+$/.test(String(port))) problem(`${name}: unexpected port mapping ${port}`);
  }
  const script = commandOf(service).find((part) => /\.(ts|mjs|js)$/.test(part));
  if (script && !existsSync(join(root, script))) problem(`${name}: runs ${script}, which does not exist yet`);
}

const apis = Object.keys(services).filter((name) => /^api-\d+$/.test(name));
if (apis.length < 2) problem(`expected at least two api services, found ${apis.length}`);
for (const name of apis) {
  const test = JSON.stringify(services[name].healthcheck?.test ?? '');
  if (!test.includes('/api/health/ready')) problem(`${name}: health check does not ask /api/health/ready`);
}
if (!services.worker) problem('no worker service');
const redis = commandOf(services.redis ?? {}).join(' ');
if (!/--maxmemory-policy noeviction/.test(redis)) problem('redis: maxmemory-policy is not noeviction');
if (!/--appendonly yes/.test(redis)) problem('redis: appendonly is not yes');

// Photos' bytes: a BLOB_STORE_URL's endpoint is a service, its bucket is made by a service every
// app waits for (a one-shot that must complete), and the credentials are set beside it.
for (const name of [...apis, 'worker']) {
  const env = services[name]?.environment ?? {};
  const url = env.BLOB_STORE_URL;
  if (!url) continue;
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (parsed?.protocol !== 's3:') {
    problem(`${name}: BLOB_STORE_URL is not an s3:// URL`);
    continue;
  }
  const endpoint = parsed.searchParams.get('endpoint');
  const host = endpoint && URL.canParse(endpoint) ? new URL(endpoint).hostname : null;
  if (host && !services[host]) problem(`${name}: BLOB_STORE_URL's endpoint ${host} is not a service`);
  if (!env.AWS_ACCESS_KEY_ID || !env.AWS_SECRET_ACCESS_KEY)
    problem(`${name}: BLOB_STORE_URL without AWS credentials`);
  const makers = Object.entries(services).filter(([, s]) =>
    JSON.stringify(s.entrypoint ?? s.command ?? '').includes(`mb --ignore-existing local/${parsed.hostname}`),
  );
  if (makers.length === 0) problem(`${name}: no service makes the bucket ${parsed.hostname}`);
  for (const [maker] of makers) {
    if (services[name].depends_on?.[maker]?.condition !== 'service_completed_successfully')
      problem(`${name}: does not wait for ${maker} to make the bucket`);
  }
}

// nginx reaches the apis by their service names, on the port they listen on.
const nginx = readFileSync(join(root, 'deploy/nginx.conf'), 'utf8');
const upstreams = [...nginx.matchAll(/^\s*server\s+([\w.-]+):(\d+)/gm)].map((m) => m[1]);
for (const host of upstreams) if (!services[host]) problem(`nginx: upstream ${host} is not a service`);
for (const name of apis) if (!upstreams.includes(name)) problem(`nginx: ${name} is not in the upstream`);
if (!/proxy_set_header\s+Upgrade\s+\$http_upgrade/.test(nginx))
  problem('nginx: /socket.io passes no Upgrade');

// Every COPY source outside a stage must be in the build context and not excluded by .dockerignore.
const ignored = readFileSync(join(root, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
for (const m of dockerfile.matchAll(/^COPY\s+(?!--from)(.+)$/gm)) {
  const parts = m[1].trim().split(/\s+/);
  for (const source of parts.slice(0, -1)) {
    if (source === '.') continue;
    if (!existsSync(join(root, source))) problem(`Dockerfile: COPY ${source}, which does not exist`);
    if (ignored.some((pattern) => pattern.replace(/^\*\*\//, '') === source)) {
      problem(`Dockerfile: COPY ${source}, which .dockerignore excludes`);
    }
  }
}

for (const p of problems) console.log(`compose: ${p}`);
console.log(
  problems.length === 0
    ? `compose: ${Object.keys(services).length} services, ${volumes.length} volumes, Dockerfile stages ${stages.join(', ')}: ok`
    : `compose: ${problems.length} problem(s)`,
);
process.exit(problems.length === 0 ? 0 : 1);
