import { provideHttpClient } from '@angular/common/http';
import { HttpTestingController, provideHttpClientTesting } from '@angular/common/http/testing';
import { Component, effect } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { provideRouter, Router } from '@angular/router';

import { SessionService, tokenTiming } from './session.service';

@Component({ template: '' })
class BlankComponent {}

const user = {
  id: 'u-1',
  email: 'robin@example.com',
  displayName: 'Robin',
  role: 'user' as const,
  emailVerified: true,
};
const unauthenticated = {
  error: { code: 'unauthenticated', message: 'the session has ended: sign in again' },
};

/** A token shaped as the api's (a JWT), issued and expiring at these seconds; the signature is not read. */
function jwt(iat: number, exp: number, name = 'x'): string {
  const part = (value: object) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'u-1', name, iat, exp })}.signature`;
}
const nowSeconds = () => Math.floor(Date.now() / 1000);

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

async function setup(stored?: { token: string }) {
  if (stored) localStorage.setItem('sweatpants.session', JSON.stringify({ token: stored.token, user }));
  TestBed.configureTestingModule({
    providers: [
      provideHttpClient(),
      provideHttpClientTesting(),
      provideRouter([
        { path: 'sign-in', component: BlankComponent },
        { path: 'c/:id', component: BlankComponent },
      ]),
    ],
  });
  const router = TestBed.inject(Router);
  await router.navigateByUrl('/c/abc');
  const session = TestBed.inject(SessionService);
  TestBed.tick();
  return { session, router, backend: TestBed.inject(HttpTestingController) };
}

describe('tokenTiming', () => {
  it('reads when an access token was issued and expires from its claims, and nothing from other strings', () => {
    expect(tokenTiming(jwt(1_000, 4_600))).toEqual({ issuedAt: 1_000_000, expiresAt: 4_600_000 });
    for (const token of ['old-token', 'a.b.c', 'a..c', `x.${btoa('{"exp":"soon"}')}.y`]) {
      expect(tokenTiming(token)).toBeNull();
    }
  });
});

describe('SessionService', () => {
  afterEach(() => {
    TestBed.inject(HttpTestingController).verify();
    localStorage.clear();
  });

  it('refreshes an access token that expired while the app was closed as soon as it starts', async () => {
    const stale = jwt(nowSeconds() - 3_600, nowSeconds() - 1);
    const { session, backend } = await setup({ token: stale });
    await tick();
    const fresh = jwt(nowSeconds(), nowSeconds() + 3_600, 'fresh');
    backend.expectOne('/api/auth/refresh').flush({ token: fresh, user });
    await tick();
    expect(session.token()).toBe(fresh);
    expect(JSON.parse(localStorage.getItem('sweatpants.session') ?? '{}')).toMatchObject({ token: fresh });
    // The fresh one has an hour to go: nothing more is asked now.
    TestBed.tick();
    await tick();
    backend.expectNone('/api/auth/refresh');
  });

  it('keeps a session stored before the api said whether the email is proven, as unproven', async () => {
    const { emailVerified: _unsaid, ...before } = user;
    const token = jwt(nowSeconds(), nowSeconds() + 3_600);
    localStorage.setItem('sweatpants.session', JSON.stringify({ token, user: before }));
    const { session } = await setup();
    expect(session.token()).toBe(token);
    expect(session.user()).toEqual({ ...before, emailVerified: false });
  });

  it('refreshes a little before the access token expires', async () => {
    // Two seconds of life: refreshed a fifth of that before the end, well before it is refused.
    const { session, backend } = await setup({ token: jwt(nowSeconds(), nowSeconds() + 2) });
    await tick(100);
    backend.expectNone('/api/auth/refresh');
    await tick(2_000);
    backend.expectOne('/api/auth/refresh').flush({ token: 'fresh-token', user });
    await tick();
    expect(session.token()).toBe('fresh-token');
  });

  it('sends the person to sign in, saying why and where they were, when the session is over', async () => {
    const { session, router, backend } = await setup({ token: jwt(nowSeconds() - 60, nowSeconds() - 1) });
    await tick();
    backend
      .expectOne('/api/auth/refresh')
      .flush(unauthenticated, { status: 401, statusText: 'Unauthorized' });
    await tick();
    expect(session.signedIn()).toBe(false);
    expect(router.url).toBe('/sign-in?signedOut=expired&returnUrl=%2Fc%2Fabc');
  });

  it('tells effects of a new sign-in or sign-out, not of each refresh of the token', async () => {
    const { session, backend } = await setup({ token: 'old-token' });
    const seen: (string | null)[] = [];
    TestBed.runInInjectionContext(() => effect(() => void seen.push(session.token())));
    TestBed.tick();
    const refreshed = session.refreshAfter('old-token');
    backend.expectOne('/api/auth/refresh').flush({ token: 'fresh-token', user });
    await expect(refreshed).resolves.toBe('fresh-token');
    TestBed.tick();
    expect(session.token()).toBe('fresh-token');
    session.start({ token: 'next-sign-in', user });
    TestBed.tick();
    expect(seen).toEqual(['old-token', 'next-sign-in']);
  });

  it('takes the token another tab refreshed instead of presenting the refresh token again', async () => {
    const { session, backend } = await setup({ token: 'old-token' });
    localStorage.setItem('sweatpants.session', JSON.stringify({ token: 'other-tab-token', user }));
    await expect(session.refreshAfter('old-token')).resolves.toBe('other-tab-token');
    expect(session.token()).toBe('other-tab-token');
    backend.expectNone('/api/auth/refresh');
  });

  it('answers a caller refused with an old token with the current one, without asking the api', async () => {
    const { session, backend } = await setup({ token: 'current-token' });
    await expect(session.refreshAfter('older-token')).resolves.toBe('current-token');
    backend.expectNone('/api/auth/refresh');
  });

  it('does not send anyone anywhere for a session that changed since it was refused', async () => {
    const { session, router } = await setup({ token: 'old-token' });
    session.start({ token: 'new-token', user });
    session.expire('old-token');
    await tick();
    expect(session.token()).toBe('new-token');
    expect(router.url).toBe('/c/abc');
  });

  it('asks the api to end the session on sign-out, even as the page is left', async () => {
    const fetch = jest.fn().mockResolvedValue({ status: 204 });
    const saved = globalThis.fetch;
    globalThis.fetch = fetch;
    try {
      const { session } = await setup({ token: 'old-token' });
      session.end();
      expect(session.signedIn()).toBe(false);
      expect(localStorage.getItem('sweatpants.session')).toBeNull();
      expect(fetch).toHaveBeenCalledWith('/api/auth/sign-out', {
        method: 'POST',
        keepalive: true,
        credentials: 'same-origin',
      });
    } finally {
      globalThis.fetch = saved;
    }
  });
});
