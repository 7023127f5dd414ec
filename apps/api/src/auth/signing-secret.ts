import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the embedded default keeps its secret, inside DATA_DIR beside the PGlite data. */
export const SECRET_FILE = 'jwt-secret';

/** The secret tokens are signed with, and where it came from (for the start-up log). */
export interface SigningSecret {
  secret: string;
  source: { kind: 'env' } | { kind: 'file'; path: string; created: boolean };
}

/**
 * JWT_SECRET when set; otherwise a secret made once and kept in `<dataDir>/jwt-secret`, readable by
 * this process's user only, so a restart of `npm start` keeps everyone signed in. Created with
 * O_EXCL: when two processes start on one data directory, the second reads the first one's file
 * instead of writing its own, and both sign alike.
 */
export function signingSecret(jwtSecret: string | undefined, dataDir: string): SigningSecret {
  if (jwtSecret !== undefined) return { secret: jwtSecret, source: { kind: 'env' } };
  const path = join(dataDir, SECRET_FILE);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(path, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
    return { secret: read(path), source: { kind: 'file', path, created: true } };
  } catch (error: unknown) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { secret: read(path), source: { kind: 'file', path, created: false } };
  }
}

function read(path: string): string {
  const secret = readFileSync(path, 'utf8').trim();
  // A truncated or hand-edited file would sign with a guessable key: refuse to start instead.
  if (secret.length < 32) throw new Error(`${path} holds no usable secret (under 32 characters)`);
  return secret;
}
