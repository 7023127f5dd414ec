// Runs a child process whose standard output is both shown and kept, for the scripts that read a
// runner's closing line (`npm test` reads e2e's, `npm run bench` each part's).
import { spawn } from 'node:child_process';

/** Runs `command args` in `cwd`; resolves with its exit code and everything it printed to stdout. */
export function teeChild(command, args, cwd) {
  return new Promise((resolve, reject) => {
    const output = [];
    const child = spawn(command, args, { cwd, env: process.env, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      output.push(chunk);
    });
    child.on('error', reject);
    child.on('exit', (exitCode, signal) =>
      resolve({ code: exitCode ?? (signal ? 1 : 0), output: Buffer.concat(output).toString('utf8') }),
    );
  });
}
