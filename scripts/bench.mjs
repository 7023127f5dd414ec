// `npm run bench`: the tree store against its floors (libs/tree-store/bench), then the api end to
// end over Socket.IO (apps/api/bench), then photos inline vs as blobs (apps/api/bench/photo-bench.ts),
// then a tidying session's cost on Claude with prompt caching (apps/api/bench/claude-cost-bench.ts),
// then what a person waits for in that session on a model's clock (apps/api/bench/claude-turns-bench.ts),
// then opening and rewinding a conversation 100k deep against 1k (apps/api/bench/depth-bench.ts),
// then a turn over MCP against the same turn over Socket.IO (apps/api/bench/mcp-bench.ts).
// Arguments (`--quick`) go to each. Each prints its table and
// a `bench: N of M targets met` line; the last line adds them up.
import { fileURLToPath } from 'node:url';
import { teeChild } from './tee-child.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const parts = [
  ['./libs/tree-store/bench/register.js', 'libs/tree-store/bench/bench.ts'],
  ['./apps/api/reliability/register.js', 'apps/api/bench/socket-bench.ts'],
  ['./apps/api/reliability/register.js', 'apps/api/bench/photo-bench.ts'],
  ['./apps/api/reliability/register.js', 'apps/api/bench/claude-cost-bench.ts'],
  ['./apps/api/reliability/register.js', 'apps/api/bench/claude-turns-bench.ts'],
  ['./apps/api/reliability/register.js', 'apps/api/bench/depth-bench.ts'],
  ['./apps/api/reliability/register.js', 'apps/api/bench/mcp-bench.ts'],
];

let met = 0;
let total = 0;
let failed = false;
for (const [register, entry] of parts) {
  const { code, output } = await teeChild('node', ['-r', register, entry, ...args], root);
  const line = [...output.matchAll(/^bench: (\d+) of (\d+) targets met$/gm)].at(-1);
  if (code !== 0 || !line) failed = true;
  if (line) {
    met += Number(line[1]);
    total += Number(line[2]);
  }
}
console.log(`\nbench: ${met} of ${total} targets met${failed ? ' (a part failed to run)' : ''}`);
process.exit(failed ? 1 : 0);
