import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import type { RouteAccess } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { ADMIN_ONLY, IS_PUBLIC } from '../src/auth/auth.decorators';
import { ROUTES } from '../src/openapi/route-table';
import { ask, createConversation, path } from './support/flows';
import { client, register, registerAdmin, startApi, type TestApi } from './support/test-api';

/** A route as the app serves it: `get /api/conversations/:id`, and who may call it. */
interface ServedRoute {
  key: string;
  access: RouteAccess;
}

const joinPath = (...parts: string[]): string =>
  `/${parts
    .flatMap((part) => part.split('/'))
    .filter(Boolean)
    .join('/')}`;
const asList = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : [String(value ?? '')];

/** Every route of every controller the app registered, read from Nest's own route metadata. */
function servedRoutes(api: TestApi): ServedRoute[] {
  const served = new Map<string, ServedRoute>();
  for (const module of api.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller) continue;
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler: unknown = Object.getOwnPropertyDescriptor(controller.prototype, name)?.value;
        if (typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) continue;
        // As the auth guard reads them: the handler's marks first, then the controller's.
        const mark = (key: string) =>
          (Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller)) === true;
        const access: RouteAccess = mark(IS_PUBLIC) ? 'public' : mark(ADMIN_ONLY) ? 'admin' : 'user';
        for (const base of asList(Reflect.getMetadata(PATH_METADATA, controller))) {
          for (const own of asList(Reflect.getMetadata(PATH_METADATA, handler))) {
            const key = `${RequestMethod[method].toLowerCase()} ${joinPath('api', base, own)}`;
            served.set(key, { key, access });
          }
        }
      }
    }
  }
  return [...served.values()].sort((a, b) => a.key.localeCompare(b.key));
}

describe('the HTTP contract (libs/domain) and the controllers', () => {
  let db: TestDatabase;
  let api: TestApi;

  beforeAll(async () => {
    db = await createTestDatabase('api_http_contract');
    api = await startApi({ DATABASE_URL: db.url, ADMIN_EMAILS: 'contract-admin@example.com' });
  }, 30_000);
  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  it('declares every route a controller serves, and a controller serves every route it declares', () => {
    const declared = ROUTES.map((r) => ({ key: `${r.method} ${r.path}`, access: r.access })).sort((a, b) =>
      a.key.localeCompare(b.key),
    );
    const served = servedRoutes(api);
    expect(served.length).toBeGreaterThan(30);
    expect(served.map((r) => r.key)).toEqual(declared.map((r) => r.key));
  });

  it('says who may call each route as the controllers do (public, user, admin)', () => {
    const declared = Object.fromEntries(ROUTES.map((r) => [`${r.method} ${r.path}`, r.access]));
    for (const route of servedRoutes(api)) {
      expect([route.key, route.access]).toEqual([route.key, declared[route.key]]);
    }
  });

  it("answers as the contract's response schemas say (the client checks each answer)", async () => {
    const { token } = await register(api, 'contract');
    const owner = client(api, token);
    await expect(owner.health()).resolves.toMatchObject({ status: 'ok' });
    await expect(owner.me()).resolves.toMatchObject({ role: 'user' });
    expect((await owner.agents()).items.length).toBeGreaterThan(0);
    const c = await createConversation(api, token);
    const q = await ask(api, token, c.id);
    const user = (await path(api, token, c.id)).find((n) => n.kind === 'user')!;
    expect((await owner.conversation({ params: { id: c.id } })).pendingElicit?.elicitId).toBe(q.elicitId);
    await owner.listConversations({ query: { limit: 5 } });
    await owner.state({ params: { id: c.id } });
    await owner.tree({ params: { id: c.id }, query: { limit: 3 } });
    await owner.node({ params: { id: c.id, nodeId: user.id } });
    const { entries } = await owner.reflog({ params: { id: c.id } });
    await owner.renameConversation({ params: { id: c.id }, body: { title: 'Desk' } });
    await owner.compactions({ params: { id: c.id } });
    const fork = await owner.fork({ params: { id: c.id }, body: { at: 'HEAD' } });
    await owner.archiveConversation({ params: { id: fork.id } });

    const admin = client(api, (await registerAdmin(api, db.url, 'contract-admin@example.com')).token);
    await admin.adminReflog({ query: { limit: 5 } });
    await admin.adminConversations({ query: { limit: 5 } });
    await admin.adminConversation({ params: { id: c.id } });
    await admin.adminTree({ params: { id: c.id } });
    await admin.adminUsage({ params: { id: c.id } });
    await expect(admin.fsck({ params: { conversationId: c.id } })).resolves.toMatchObject({ ok: true });
    await admin.gcRuns();
    await admin.adminSpend();

    await owner.recover({ params: { id: c.id }, body: { reflogId: entries.at(-1)!.id } });
  });
});
