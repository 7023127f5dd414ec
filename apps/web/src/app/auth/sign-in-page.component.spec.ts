import { TestBed } from '@angular/core/testing';
import { provideRouter, Router } from '@angular/router';
import { RouterTestingHarness } from '@angular/router/testing';

import type { SignInMethods } from '@sweatpants/domain';

import { ApiError, describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { SessionService } from '../core/session.service';
import { SignInPageComponent } from './sign-in-page.component';

const PASSWORD_ONLY: SignInMethods = { password: true, oidc: null };

async function setup(
  url: string,
  refusal: ApiError,
  methods: SignInMethods = PASSWORD_ONLY,
  session?: Partial<SessionService>,
) {
  const api = {
    login: jest.fn().mockRejectedValue(refusal),
    register: jest.fn().mockRejectedValue(refusal),
    signInMethods: jest.fn().mockResolvedValue(methods),
  };
  TestBed.configureTestingModule({
    providers: [
      provideRouter([
        { path: 'sign-in', component: SignInPageComponent },
        { path: 'sign-up', component: SignInPageComponent, data: { mode: 'sign-up' } },
        { path: 'account', children: [] },
      ]),
      { provide: ApiService, useValue: api },
      ...(session ? [{ provide: SessionService, useValue: session }] : []),
    ],
  });
  const harness = await RouterTestingHarness.create();
  await harness.navigateByUrl(url, SignInPageComponent);
  // the sign-in methods have answered
  await harness.fixture.whenStable();
  harness.detectChanges();
  const element = harness.routeNativeElement as HTMLElement;
  const fill = (name: string, value: string) => {
    const input = element.querySelector(`input[name="${name}"]`) as HTMLInputElement;
    input.value = value;
    input.dispatchEvent(new Event('input'));
  };
  const submit = async () => {
    (element.querySelector('button[type="submit"]') as HTMLButtonElement).click();
    await harness.fixture.whenStable();
    harness.detectChanges();
  };
  return { api, element, fill, submit, harness };
}

const countOf = (text: string, part: string) => text.split(part).length - 1;

describe('SignInPageComponent', () => {
  it('says a wrong password in plain words, once', async () => {
    const refusal = new ApiError({ code: 'unauthenticated', message: 'wrong email or password' }, 401);
    const { api, element, fill, submit } = await setup('/sign-in', refusal);
    fill('email', 'robin@example.com');
    fill('password', 'not-it');
    await submit();
    expect(api.login).toHaveBeenCalledWith({ email: 'robin@example.com', password: 'not-it' });
    const alerts = element.querySelectorAll('[role="alert"]');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.textContent?.trim()).toBe("That email and password don't match.");
    expect(countOf(element.textContent ?? '', "don't match")).toBe(1);
  });

  it('says a short password on sign-up in plain words, once, without the raw validation text', async () => {
    const refusal = new ApiError(
      {
        code: 'invalid_request',
        message: 'invalid request: password: at least 8 characters',
        details: [{ field: 'password', message: 'at least 8 characters' }],
      },
      400,
    );
    const { element, fill, submit } = await setup('/sign-up', refusal);
    fill('displayName', 'Robin');
    fill('email', 'robin@example.com');
    fill('password', 'short');
    await submit();
    const alert = element.querySelector('[role="alert"]');
    expect(alert?.textContent?.trim()).toBe('Use at least 8 characters for the password.');
    expect(element.textContent).not.toContain('invalid request');
    expect(countOf(element.textContent ?? '', 'Use at least 8 characters')).toBe(1);
  });

  it('says a registered email and several bad fields in sentences', () => {
    const taken = new ApiError(
      {
        code: 'conflict',
        message: 'an account with this email exists already',
        details: [{ field: 'email', message: 'is registered already' }],
      },
      409,
    );
    expect(describeError(taken, 'sign-up')).toBe(
      'An account with this email already exists. Sign in instead.',
    );
    const bad = new ApiError(
      {
        code: 'invalid_request',
        message: 'invalid request: email: Invalid email address; displayName: Too small',
        details: [
          { field: 'email', message: 'Invalid email address' },
          { field: 'displayName', message: 'Too small: expected string to have >=1 characters' },
        ],
      },
      400,
    );
    expect(describeError(bad, 'sign-up')).toBe("That doesn't look like an email address. Enter your name.");
  });

  describe('with an identity provider', () => {
    const none = new ApiError({ code: 'internal', message: 'unused' }, 500);
    const corp: SignInMethods = { password: true, oidc: { name: 'Corp SSO' } };

    it("offers the provider's button beside the password form, keeping where the person was going", async () => {
      const { element } = await setup('/sign-in?returnUrl=%2Faccount', none, corp);
      const button = [...element.querySelectorAll('a')].find(
        (a) => a.textContent?.trim() === 'Sign in with Corp SSO',
      );
      expect(button?.getAttribute('href')).toBe('/api/auth/oidc/login?returnUrl=%2Faccount');
      expect(element.querySelector('input[name="password"]')).not.toBeNull();
    });

    it('hides the password form and registration when password sign-in is off', async () => {
      const only: SignInMethods = { password: false, oidc: { name: 'Corp SSO' } };
      const signIn = await setup('/sign-in', none, only);
      expect(signIn.element.querySelector('form')).toBeNull();
      expect(signIn.element.textContent).not.toContain('Create an account');
      expect(signIn.element.textContent).toContain('Sign in with Corp SSO');
      TestBed.resetTestingModule();
      const signUp = await setup('/sign-up', none, only);
      expect(signUp.element.querySelector('form')).toBeNull();
      expect(signUp.element.textContent).toContain('Accounts here are made by signing in with Corp SSO.');
    });

    it("says why the provider's sign-in did not sign the person in, in plain words, once", async () => {
      const { element } = await setup('/sign-in?oidcError=unverified_account', none, corp);
      const alerts = element.querySelectorAll('[role="alert"]');
      expect(alerts).toHaveLength(1);
      expect(alerts[0]!.textContent?.trim()).toBe(
        'An account with your email exists here, but its email address was never confirmed, so it cannot be joined to Corp SSO. Sign in with your password and confirm your email first.',
      );
    });

    it('ignores a reason it does not know (no link makes the page say what it likes)', async () => {
      const { element } = await setup('/sign-in?oidcError=%3Cb%3Eyou+are+hacked', none, corp);
      expect(element.querySelectorAll('[role="alert"]')).toHaveLength(0);
      expect(element.textContent).not.toContain('hacked');
    });

    it("takes up the session the provider's return began, and goes where the person was going", async () => {
      const adopt = jest.fn().mockResolvedValue(undefined);
      const { harness } = await setup('/sign-in?via=oidc&returnUrl=%2Faccount', none, corp, { adopt });
      await harness.fixture.whenStable();
      expect(adopt).toHaveBeenCalledTimes(1);
      expect(TestBed.inject(Router).url).toBe('/account');
    });
  });
});
