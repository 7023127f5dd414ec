import { HttpClient, provideHttpClient, withInterceptors } from '@angular/common/http';
import { HttpTestingController, provideHttpClientTesting } from '@angular/common/http/testing';
import { Component } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { provideRouter, Router } from '@angular/router';
import { firstValueFrom } from 'rxjs';

import { authInterceptor } from './auth.interceptor';
import { SessionService } from './session.service';

@Component({ template: '' })
class BlankComponent {}

const user = {
  id: 'u-1',
  email: 'robin@example.com',
  displayName: 'Robin',
  role: 'user' as const,
  emailVerified: true,
};
const unauthenticated = { error: { code: 'unauthenticated', message: 'the token is invalid or expired' } };
const REFUSED = { status: 401, statusText: 'Unauthorized' };

/** Lets promise chains (the refresh, the retry) reach HttpClient before the test looks. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

async function setup(token = 'old-token') {
  TestBed.configureTestingModule({
    providers: [
      provideHttpClient(withInterceptors([authInterceptor])),
      provideHttpClientTesting(),
      provideRouter([
        { path: 'sign-in', component: BlankComponent },
        { path: 'c/:id', component: BlankComponent },
      ]),
    ],
  });
  const session = TestBed.inject(SessionService);
  session.start({ token, user });
  const router = TestBed.inject(Router);
  await router.navigateByUrl('/c/abc');
  return {
    session,
    router,
    http: TestBed.inject(HttpClient),
    backend: TestBed.inject(HttpTestingController),
  };
}

describe('authInterceptor', () => {
  afterEach(() => {
    TestBed.inject(HttpTestingController).verify();
    localStorage.clear();
  });

  it('sends the bearer token to the api, and none to sign-in or refresh', async () => {
    const { http, backend } = await setup();
    void firstValueFrom(http.get('/api/conversations'));
    void firstValueFrom(http.post('/api/auth/login', {}));
    expect(backend.expectOne('/api/conversations').request.headers.get('Authorization')).toBe(
      'Bearer old-token',
    );
    expect(backend.expectOne('/api/auth/login').request.headers.has('Authorization')).toBe(false);
    // Signing out everywhere is a signed-in call, whatever its name shares with sign-out.
    void firstValueFrom(http.post('/api/auth/sign-out-everywhere', {}));
    const everywhere = backend.expectOne('/api/auth/sign-out-everywhere');
    expect(everywhere.request.headers.get('Authorization')).toBe('Bearer old-token');
    backend.match(() => true).forEach((r) => r.flush({}));
  });

  it('refreshes on a 401 and sends the call again with the fresh token; the person notices nothing', async () => {
    const { http, backend, session, router } = await setup();
    const answer = firstValueFrom(http.get('/api/conversations/abc'));
    backend.expectOne('/api/conversations/abc').flush(unauthenticated, REFUSED);
    await tick();
    const refresh = backend.expectOne('/api/auth/refresh');
    expect(refresh.request.method).toBe('POST');
    expect(refresh.request.headers.has('Authorization')).toBe(false);
    refresh.flush({ token: 'fresh-token', user });
    await tick();
    const again = backend.expectOne('/api/conversations/abc');
    expect(again.request.headers.get('Authorization')).toBe('Bearer fresh-token');
    again.flush({ id: 'abc' });
    await expect(answer).resolves.toEqual({ id: 'abc' });
    expect(session.token()).toBe('fresh-token');
    expect(router.url).toBe('/c/abc');
  });

  it('shares one refresh among calls refused at once', async () => {
    const { http, backend } = await setup();
    const answers = ['/api/a', '/api/b', '/api/c'].map((url) => firstValueFrom(http.get(url)));
    for (const url of ['/api/a', '/api/b', '/api/c']) backend.expectOne(url).flush(unauthenticated, REFUSED);
    await tick();
    backend.expectOne('/api/auth/refresh').flush({ token: 'fresh-token', user });
    await tick();
    for (const url of ['/api/a', '/api/b', '/api/c']) {
      const again = backend.expectOne(url);
      expect(again.request.headers.get('Authorization')).toBe('Bearer fresh-token');
      again.flush({ url });
    }
    await expect(Promise.all(answers)).resolves.toEqual([
      { url: '/api/a' },
      { url: '/api/b' },
      { url: '/api/c' },
    ]);
  });

  it('sends the person to sign in, saying why and where they were, when the refresh is refused', async () => {
    const { http, backend, session, router } = await setup();
    const answer = firstValueFrom(http.get('/api/conversations/abc'));
    backend.expectOne('/api/conversations/abc').flush(unauthenticated, REFUSED);
    await tick();
    backend.expectOne('/api/auth/refresh').flush(unauthenticated, REFUSED);
    await expect(answer).rejects.toMatchObject({ status: 401 });
    await tick();
    expect(session.signedIn()).toBe(false);
    expect(router.url).toBe('/sign-in?signedOut=expired&returnUrl=%2Fc%2Fabc');
  });

  it('gives up after one refresh: a call refused again with the fresh token ends the session', async () => {
    const { http, backend, session, router } = await setup();
    const answer = firstValueFrom(http.get('/api/conversations/abc'));
    backend.expectOne('/api/conversations/abc').flush(unauthenticated, REFUSED);
    await tick();
    backend.expectOne('/api/auth/refresh').flush({ token: 'fresh-token', user });
    await tick();
    backend.expectOne('/api/conversations/abc').flush(unauthenticated, REFUSED);
    await expect(answer).rejects.toMatchObject({ status: 401 });
    await tick();
    backend.expectNone('/api/auth/refresh');
    expect(session.signedIn()).toBe(false);
    expect(router.url).toContain('/sign-in?signedOut=expired');
  });

  it('keeps the session when the api cannot be reached for the refresh', async () => {
    const { http, backend, session, router } = await setup();
    const answer = firstValueFrom(http.get('/api/conversations/abc'));
    backend.expectOne('/api/conversations/abc').flush(unauthenticated, REFUSED);
    await tick();
    backend.expectOne('/api/auth/refresh').error(new ProgressEvent('error'), { status: 0 });
    await expect(answer).rejects.toMatchObject({ status: 401 });
    expect(session.token()).toBe('old-token');
    expect(router.url).toBe('/c/abc');
  });

  it('lets a new password’s answer land before refreshing a call refused meanwhile, and uses its token', async () => {
    const { http, backend, session, router } = await setup();
    // The page changes the password, and carries on with the answer's token (as the account page does).
    const changed = firstValueFrom(http.post<{ token: string }>('/api/account/password', {})).then((fresh) =>
      session.start({ token: fresh.token, user }),
    );
    const list = firstValueFrom(http.get('/api/conversations'));
    // The api refused the old token as soon as it changed the password.
    backend.expectOne('/api/conversations').flush(unauthenticated, REFUSED);
    await tick();
    backend.expectNone('/api/auth/refresh');
    backend.expectOne('/api/account/password').flush({ token: 'new-password-token', user });
    await changed;
    await tick();
    await tick();
    backend.expectNone('/api/auth/refresh');
    const again = backend.expectOne('/api/conversations');
    expect(again.request.headers.get('Authorization')).toBe('Bearer new-password-token');
    again.flush([]);
    await expect(list).resolves.toEqual([]);
    expect(router.url).toBe('/c/abc');
  });

  it('passes other errors through without refreshing', async () => {
    const { http, backend } = await setup();
    const answer = firstValueFrom(http.get('/api/conversations/abc'));
    backend
      .expectOne('/api/conversations/abc')
      .flush({ error: { code: 'not_found', message: 'no' } }, { status: 404, statusText: 'Not Found' });
    await expect(answer).rejects.toMatchObject({ status: 404 });
    backend.expectNone('/api/auth/refresh');
  });
});
