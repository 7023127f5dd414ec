import { Component } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { provideRouter, Router } from '@angular/router';
import { RouterTestingHarness } from '@angular/router/testing';

import { ApiService } from '../core/api.service';
import { signedInGuard } from '../core/auth.guards';
import { SessionService } from '../core/session.service';
import { safeReturnUrl, SignInPageComponent } from './sign-in-page.component';

@Component({ template: '<p>the conversation</p>' })
class ConversationComponent {}
@Component({ template: '<p>home</p>' })
class HomeComponent {}

const user = {
  id: 'u-1',
  email: 'robin@example.com',
  displayName: 'Robin',
  role: 'user' as const,
  emailVerified: true,
};

async function setup(url: string) {
  const api = {
    login: jest.fn().mockResolvedValue({ token: 'fresh-token', user }),
    register: jest.fn(),
    signInMethods: jest.fn().mockResolvedValue({ password: true, oidc: null }),
  };
  TestBed.configureTestingModule({
    providers: [
      provideRouter([
        { path: 'sign-in', component: SignInPageComponent },
        { path: 'c/:id', component: ConversationComponent, canActivate: [signedInGuard] },
        { path: '', component: HomeComponent, canActivate: [signedInGuard] },
      ]),
      { provide: ApiService, useValue: api },
    ],
  });
  const harness = await RouterTestingHarness.create();
  await harness.navigateByUrl(url);
  // the sign-in methods have answered
  await harness.fixture.whenStable();
  harness.detectChanges();
  const element = () => harness.routeNativeElement as HTMLElement;
  const signIn = async () => {
    const fields: [string, string][] = [
      ['email', 'robin@example.com'],
      ['password', 'correct horse battery'],
    ];
    for (const [name, value] of fields) {
      const input = element().querySelector(`input[name="${name}"]`) as HTMLInputElement;
      input.value = value;
      input.dispatchEvent(new Event('input'));
    }
    (element().querySelector('button[type="submit"]') as HTMLButtonElement).click();
    await harness.fixture.whenStable();
    harness.detectChanges();
  };
  return {
    harness,
    element,
    signIn,
    router: TestBed.inject(Router),
    session: TestBed.inject(SessionService),
  };
}

describe('signing in again after a session ended', () => {
  afterEach(() => localStorage.clear());

  it('says why the person is here, and brings them back to their conversation', async () => {
    const { element, signIn, router, session } = await setup(
      '/sign-in?signedOut=expired&returnUrl=%2Fc%2Fabc',
    );
    expect(element().querySelector('[role="status"]')?.textContent?.trim()).toBe(
      'Your session ended; sign in again to carry on.',
    );
    await signIn();
    expect(session.token()).toBe('fresh-token');
    expect(router.url).toBe('/c/abc');
    expect(element().textContent).toContain('the conversation');
  });

  it('sends a signed-out visitor of a conversation to sign in and back there', async () => {
    const { router, signIn } = await setup('/c/abc');
    expect(router.url).toBe('/sign-in?returnUrl=%2Fc%2Fabc');
    await signIn();
    expect(router.url).toBe('/c/abc');
  });

  it('follows only paths of this app', async () => {
    const { router, signIn } = await setup('/sign-in?returnUrl=%2F%2Fevil.example%2Fphish');
    await signIn();
    expect(router.url).toBe('/');
    for (const unsafe of [
      null,
      '',
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      '/sign-in',
    ]) {
      expect(safeReturnUrl(unsafe)).toBeNull();
    }
    expect(safeReturnUrl('/c/abc/tree?x=1')).toBe('/c/abc/tree?x=1');
  });
});
