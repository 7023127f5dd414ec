// A stdio MCP server seen through a tap: `node mcp-tap.mjs <log file> <server command> [args…]`
// runs the server as its child, passes the bytes both ways untouched, and appends the name of
// every tool a client calls (each `tools/call` line the client writes) to the log file, so a spec
// can count how often a server was really called, across api processes.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

const [log, command, ...args] = process.argv.slice(2);
const server = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
let pending = '';
process.stdin.on('data', (chunk) => {
  server.stdin.write(chunk);
  pending += chunk.toString('utf8');
  const lines = pending.split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines) {
    try {
      const message = JSON.parse(line);
      if (message.method === 'tools/call') appendFileSync(log, `${message.params?.name}\n`);
    } catch {
      // not a whole JSON line: the tap only counts, the server judges
    }
  }
});
process.stdin.on('end', () => server.stdin.end());
server.stdout.pipe(process.stdout);
server.on('exit', (code) => process.exit(code ?? 0));
// The client gone (its process killed), the server goes too.
process.stdin.on('close', () => server.kill());
