import { TestBed } from '@angular/core/testing';
import { provideRouter } from '@angular/router';
import { RouterTestingHarness } from '@angular/router/testing';

import { ApiError, describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { SignInPageComponent } from './sign-in-page.component';

async function setup(url: '/sign-in' | '/sign-up', refusal: ApiError) {
  const api = {
    login: jest.fn().mockRejectedValue(refusal),
    register: jest.fn().mockRejectedValue(refusal),
  };
  TestBed.configureTestingModule({
    providers: [
      provideRouter([
        { path: 'sign-in', component: SignInPageComponent },
        { path: 'sign-up', component: SignInPageComponent, data: { mode: 'sign-up' } },
      ]),
      { provide: ApiService, useValue: api },
    ],
  });
  const harness = await RouterTestingHarness.create();
  await harness.navigateByUrl(url, SignInPageComponent);
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
  return { api, element, fill, submit };
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
});
