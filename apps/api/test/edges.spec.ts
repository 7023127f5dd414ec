import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { ROUTES } from '../src/openapi/route-table';
import { call, errorOf, register, startApi, type TestApi } from './support/test-api';
import { connect, request } from './support/test-socket';

describe('the edges: docs, security headers, CORS, rate limits', () => {
  let db: TestDatabase;
  let api: TestApi;

  beforeAll(async () => {
    db = await createTestDatabase('api_edges');
    api = await startApi({ DATABASE_URL: db.url, WEB_ORIGIN: 'https://app.example.com' });
  }, 30_000);
  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  it('serves the OpenAPI document with every route of the table and its request schemas', async () => {
    const res = await call<{
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    }>(api, 'GET', '/api/docs-json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    for (const route of ROUTES) {
      const operation = res.body.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method];
      expect([route.path, operation !== undefined]).toEqual([route.path, true]);
    }
    const register = res.body.paths['/api/auth/register']!['post']!.requestBody as {
      content: { 'application/json': { schema: { required: string[] } } };
    };
    expect(register.content['application/json'].schema.required.sort()).toEqual([
      'displayName',
      'email',
      'password',
    ]);
  });

  it('serves Swagger UI from node_modules at /api/docs', async () => {
    const page = await fetch(api.url('/api/docs'));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/api/docs/swagger-ui-bundle.js');
    expect(html).not.toMatch(/https?:\/\//);
    const bundle = await fetch(api.url('/api/docs/swagger-ui-bundle.js'));
    expect(bundle.status).toBe(200);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
  });

  it("sends helmet's headers and allows the web client's origin", async () => {
    const res = await fetch(api.url('/api/health'), { headers: { origin: 'https://app.example.com' } });
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const other = await fetch(api.url('/api/health'), { headers: { origin: 'https://evil.example.com' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  describe.each([
    ['in memory', {}],
    ['in Redis', { REDIS_URL: 'redis://127.0.0.1:6379' }],
  ])('rate limits %s', (_where, env: Record<string, string>) => {
    let limited: TestApi;
    beforeAll(async () => {
      limited = await startApi({
        DATABASE_URL: db.url,
        RATE_LIMIT_HTTP_PER_MINUTE: '3',
        RATE_LIMIT_WS_PER_MINUTE: '3',
        ...env,
      });
    }, 30_000);
    afterAll(() => limited?.close());

    it('answers a user past the HTTP limit with a 429 and Retry-After, and leaves other users alone', async () => {
      const { token } = await register(api, 'busy');
      const statuses: number[] = [];
      let refused: Response | undefined;
      for (let i = 0; i < 10; i++) {
        const res = await fetch(limited.url('/api/auth/me'), {
          headers: { authorization: `Bearer ${token}` },
        });
        statuses.push(res.status);
        if (res.status === 429) refused ??= res;
      }
      // Fixed one-minute windows: even if one boundary falls inside the loop, some request is refused.
      expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
      expect(refused).toBeDefined();
      expect(await refused!.json()).toEqual(errorOf('rate_limited'));
      expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0);
      const other = await register(api, 'calm');
      expect((await call(limited, 'GET', '/api/auth/me', { token: other.token })).status).toBe(200);
    });

    it('counts MCP requests against the same limit, refused in the same shape', async () => {
      const { token } = await register(api, 'scripted');
      const statuses: number[] = [];
      let refused: Response | undefined;
      for (let i = 0; i < 10; i++) {
        const res = await fetch(limited.url('/mcp'), {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'ping' }),
        });
        statuses.push(res.status);
        if (res.status === 429) refused ??= res;
      }
      expect(statuses.slice(0, 3)).not.toContain(429);
      expect(refused).toBeDefined();
      expect(await refused!.json()).toEqual(errorOf('rate_limited'));
      expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('answers socket events past the limit with a rate_limited ack', async () => {
      const { token } = await register(api, 'chatty');
      const socket = await connect(limited, token);
      try {
        const codes: string[] = [];
        for (let i = 0; i < 10; i++) {
          const ack = await request(socket, 'conversation:join', { conversationId: 'none' });
          codes.push(ack.ok ? 'ok' : ack.error.code);
        }
        expect(codes.slice(0, 3)).toEqual(['not_found', 'not_found', 'not_found']);
        expect(codes).toContain('rate_limited');
      } finally {
        socket.close();
      }
    });
  });
});
