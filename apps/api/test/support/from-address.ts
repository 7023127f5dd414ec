import { request } from 'node:http';
import type { Answer } from './test-api';

/**
 * A JSON request from a loopback address of the caller's choosing (any 127.x.y.z is this host),
 * so a spec can be several clients, as a limit per client address counts them.
 */
export function callFrom<T = unknown>(
  localAddress: string,
  base: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer<T> & { retryAfter: string | undefined }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, base),
      {
        method,
        localAddress,
        headers: payload === undefined ? {} : { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: (text ? JSON.parse(text) : undefined) as T,
            retryAfter: res.headers['retry-after'],
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
