import type { TestApi } from './test-api';

/** A browser's view of one answer: its status and body, and the refresh cookie it set, if any. */
export interface CookieAnswer<T> {
  status: number;
  body: T;
  /** the Set-Cookie line for `sp_refresh`, whole */
  setCookie: string | undefined;
  /** the cookie's new value ('' when the answer clears it) */
  refresh: string | undefined;
}

/**
 * One JSON request as a browser sends it to the auth routes: with the refresh cookie when given
 * (beside another cookie, as a browser may send), and whatever headers (a User-Agent).
 */
export async function send<T = unknown>(
  api: Pick<TestApi, 'url'>,
  method: string,
  path: string,
  options: { token?: string; refresh?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<CookieAnswer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  if (options.refresh !== undefined) headers['cookie'] = `other=1; sp_refresh=${options.refresh}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(api.url(path), {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await res.text();
  const setCookie = res.headers.getSetCookie().find((line) => line.startsWith('sp_refresh='));
  return {
    status: res.status,
    body: (text ? JSON.parse(text) : undefined) as T,
    setCookie,
    refresh: setCookie?.slice('sp_refresh='.length).split(';')[0],
  };
}
