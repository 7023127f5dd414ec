import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/app-config';
import { SECRET_FILE, signingSecret } from './signing-secret';
import { TokenSigner } from './token-signer';

describe('the secret tokens are signed with', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = join(mkdtempSync(join(tmpdir(), 'signing-secret-')), 'data');
  });
  afterEach(() => rmSync(join(dataDir, '..'), { recursive: true, force: true }));

  it('is JWT_SECRET when it is set, and nothing is written', () => {
    const secret = 'a-secret-of-at-least-thirty-two-characters';
    expect(signingSecret(secret, dataDir)).toEqual({ secret, source: { kind: 'env' } });
    expect(() => statSync(join(dataDir, SECRET_FILE))).toThrow();
  });

  it('is made once in DATA_DIR, readable by its owner only, and read again after a restart', () => {
    const first = signingSecret(undefined, dataDir);
    expect(first.source).toEqual({ kind: 'file', path: join(dataDir, SECRET_FILE), created: true });
    expect(statSync(join(dataDir, SECRET_FILE)).mode & 0o777).toBe(0o600);
    const again = signingSecret(undefined, dataDir);
    expect(again.secret).toBe(first.secret);
    expect(again.source).toMatchObject({ created: false });
  });

  it('refuses a file that holds no usable secret rather than sign with it', () => {
    signingSecret(undefined, dataDir);
    writeFileSync(join(dataDir, SECRET_FILE), 'short\n');
    expect(() => signingSecret(undefined, dataDir)).toThrow(/no usable secret/);
  });

  it('keeps a token signed before a restart valid after it', async () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    const subject = {
      id: 'user-1',
      email: 'robin@example.com',
      displayName: 'Robin',
      tokenGeneration: 0,
      emailVerified: false,
    };
    const token = await new TokenSigner(config).sign(subject);
    await expect(new TokenSigner(config).verify(token)).resolves.toEqual(subject);
  });
});
