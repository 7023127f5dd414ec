import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** An account of the test provider: what it says of the person in its claims. */
export interface ProviderAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
  groups?: string[];
}

export interface TestProvider {
  issuer: string;
  close(): Promise<void>;
}

export const CLIENT_ID = 'sweatpants-test';
export const CLIENT_SECRET = 'a-test-client-secret';

/**
 * The real OpenID provider of oidc-test-provider.mjs (beside this file), run as a program of its own
 * (it is an ES module, as is oidc-provider), with one client that may return people to
 * `redirectUri` and the given accounts.
 */
export async function startProvider(redirectUri: string, accounts: ProviderAccount[]): Promise<TestProvider> {
  const options = { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUri, accounts };
  const child = spawn(
    process.execPath,
    [join(__dirname, 'oidc-test-provider.mjs'), JSON.stringify(options)],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const errors: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  const issuer = await new Promise<string>((resolve, reject) => {
    lines.once('line', (line) => resolve((JSON.parse(line) as { issuer: string }).issuer));
    child.once('exit', (code) => reject(new Error(`the test provider exited (${code}): ${errors.join('')}`)));
  });
  return {
    issuer,
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A port no one listens on now, for an api whose PUBLIC_URL the provider must know first. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

interface StoredCookie {
  value: string;
  path: string;
}

/**
 * A browser's cookies for the flow: per host (as browsers keep them, whatever the port), sent
 * where their Path says, forgotten at `Max-Age=0`. Enough for the provider's cookies and ours.
 */
export class CookieJar {
  private readonly cookies = new Map<string, Map<string, StoredCookie>>();

  header(url: URL): string {
    const jar = this.cookies.get(url.hostname) ?? new Map<string, StoredCookie>();
    return [...jar]
      .filter(
        ([, cookie]) =>
          url.pathname === cookie.path || url.pathname.startsWith(cookie.path.replace(/\/?$/, '/')),
      )
      .map(([name, cookie]) => `${name}=${cookie.value}`)
      .join('; ');
  }

  keep(url: URL, response: Response): void {
    const jar = this.cookies.get(url.hostname) ?? new Map<string, StoredCookie>();
    this.cookies.set(url.hostname, jar);
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      const attribute = (key: string) =>
        attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
      if (attribute('max-age') === '0' || value === '') jar.delete(name);
      else jar.set(name, { value, path: attribute('path') ?? '/' });
    }
  }

  has(host: string, name: string): boolean {
    return this.cookies.get(host)?.has(name) ?? false;
  }
}

/** One request as a browser makes it: the jar's cookies sent, its answer's cookies kept, no redirect followed. */
export async function browse(jar: CookieJar, url: URL, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const cookie = jar.header(url);
  if (cookie) headers.set('cookie', cookie);
  const response = await fetch(url, { ...init, headers, redirect: 'manual' });
  jar.keep(url, response);
  return response;
}
