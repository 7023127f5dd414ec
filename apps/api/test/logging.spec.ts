import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createApp } from '../src/app.factory';
import { loadConfig } from '../src/config/app-config';
import { createConversation } from './support/flows';
import { JWT_SECRET, register, type TestApi } from './support/test-api';

/** One JSON log line, as an operator's log pipeline reads it. */
type Line = Record<string, unknown> & {
  msg?: string;
  req?: { id?: string; url?: string };
  res?: { statusCode?: number };
};

describe('structured logs', () => {
  let db: TestDatabase;
  let app: NestExpressApplication;
  let api: TestApi;
  const written: string[] = [];
  const lines = (): Line[] =>
    written
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Line);

  beforeAll(async () => {
    db = await createTestDatabase('api_logging');
    const config = loadConfig({
      PORT: '0',
      JWT_SECRET,
      WEB_DIST: '/nonexistent',
      DATABASE_URL: db.url,
      GC_EVERY_MINUTES: 'off',
    });
    app = await createApp(config, { logDestination: { write: (chunk: string) => void written.push(chunk) } });
    await app.listen(0, '127.0.0.1');
    const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    api = { app, base, url: (p) => `${base}${p}`, close: () => app.close() };
  }, 30_000);

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('writes each request as one JSON line with its id, the user and the conversation, never the token', async () => {
    const user = await register(api, 'logged');
    const { id } = await createConversation(api, user.token);
    const res = await fetch(api.url(`/api/conversations/${id}`), {
      headers: { authorization: `Bearer ${user.token}`, 'x-request-id': 'trace-7f3a' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('trace-7f3a');
    const line = lines().find((l) => l.req?.id === 'trace-7f3a');
    expect(line).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { id: 'trace-7f3a', method: 'GET', url: `/api/conversations/${id}` },
      res: { statusCode: 200 },
      userId: user.user.id,
      conversationId: id,
      responseTime: expect.any(Number),
    });
    expect(written.join('')).not.toContain(user.token);
  });

  it('makes a request id when the caller sends none or an implausible one', async () => {
    const plain = await fetch(api.url('/api/auth/me'));
    expect(plain.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const odd = await fetch(api.url('/api/auth/me'), {
      headers: { 'x-request-id': 'no spaces or {braces}' },
    });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const logged = lines().find((l) => l.req?.id === plain.headers.get('x-request-id'));
    expect(logged).toMatchObject({ res: { statusCode: 401 } });
  });

  it("writes Nest's own lines as JSON too, and leaves probes and scrapes out", async () => {
    expect(lines().some((l) => l['context'] === 'RoutesResolver' || l['context'] === 'NestApplication')).toBe(
      true,
    );
    const before = written.length;
    await fetch(api.url('/api/health/live'));
    await fetch(api.url('/api/metrics'));
    expect(written.slice(before).join('')).not.toMatch(/health|metrics/);
  });

  it('writes each mail to the log when SMTP_URL is unset, its link on PUBLIC_URL included', async () => {
    const { user } = await register(api, 'unsent');
    const deadline = Date.now() + 5_000;
    const mailLine = () =>
      lines().find((l) => l['context'] === 'Mail' && l.msg?.includes(`mail to ${user.email}`));
    while (!mailLine() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(mailLine()?.msg).toMatch(
      /\(SMTP_URL unset: written here, not sent\): Confirm your email for Sweatpants\n[\s\S]*http:\/\/localhost:0\/verify-email\?token=[A-Za-z0-9_-]{43}/,
    );
  });

  it('starts with no warning but what its configuration calls for, so an operator reads each as news', () => {
    // Nest's own warnings at start (a route in a syntax it has to convert, say) would come on
    // every start; the api's own say what to set. This api is set up but for the web client.
    const warnings = lines().filter((l) => Number(l['level']) >= 40);
    expect(warnings.map((l) => l['context'])).toEqual(['WebClient']);
  });
});
