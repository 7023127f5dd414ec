import { TestBed } from '@angular/core/testing';
import { provideRouter, Router } from '@angular/router';

import { ApiError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { A_USER, BlankComponent } from '../../testing/signed-in';
import { SessionService } from '../core/session.service';
import { AccountPageComponent } from './account-page.component';

const user = A_USER;

async function render(
  api: Partial<
    Record<
      'changePassword' | 'signOutEverywhere' | 'exportAccount' | 'accountDeletion' | 'requestPasswordReset',
      jest.Mock
    >
  >,
) {
  TestBed.configureTestingModule({
    providers: [
      provideRouter([{ path: 'sign-in', component: BlankComponent }]),
      {
        provide: ApiService,
        useValue: {
          // The page's personal access tokens section lists them as it opens.
          accessTokens: jest.fn().mockResolvedValue({ items: [] }),
          accountDeletion: jest.fn().mockResolvedValue({ confirmWith: 'password', recentUntil: null }),
          signInMethods: jest.fn().mockResolvedValue({ password: true, oidc: { name: 'Corp SSO' } }),
          ...api,
        },
      },
    ],
  });
  const session = TestBed.inject(SessionService);
  session.start({ token: 'old-token', user });
  const fixture = TestBed.createComponent(AccountPageComponent);
  await fixture.whenStable();
  const element = fixture.nativeElement as HTMLElement;
  const input = (name: string) => element.querySelector<HTMLInputElement>(`input[name=${name}]`)!;
  const type = (name: string, value: string) => {
    input(name).value = value;
    input(name).dispatchEvent(new Event('input'));
  };
  const button = (text: string) =>
    Array.from(element.querySelectorAll('button')).find((b) => b.textContent?.trim() === text)!;
  const settle = async () => {
    await fixture.whenStable();
    fixture.detectChanges();
  };
  return { element, session, type, button, settle, input };
}

describe('AccountPageComponent', () => {
  afterEach(() => localStorage.clear());

  it('changes the password and carries on with the fresh token, saying others are signed out', async () => {
    const changePassword = jest.fn().mockResolvedValue({ token: 'fresh-token', user });
    const { session, type, button, settle, element, input } = await render({ changePassword });
    type('currentPassword', 'correct horse battery');
    type('newPassword', 'a much better passphrase');
    await settle();
    button('Change password').click();
    await settle();
    expect(changePassword).toHaveBeenCalledWith({
      currentPassword: 'correct horse battery',
      newPassword: 'a much better passphrase',
    });
    expect(session.token()).toBe('fresh-token');
    expect(element.querySelector('[role=status]')?.textContent).toContain('Other devices are signed out');
    expect(input('currentPassword').value).toBe('');
  });

  it('says a wrong current password in plain words and keeps the session', async () => {
    const changePassword = jest.fn().mockRejectedValue(
      new ApiError(
        {
          code: 'invalid_request',
          message: 'the current password is not right',
          details: [{ field: 'currentPassword', message: 'is not your current password' }],
        },
        400,
      ),
    );
    const { session, type, button, settle, element } = await render({ changePassword });
    type('currentPassword', 'wrong');
    type('newPassword', 'a much better passphrase');
    button('Change password').click();
    await settle();
    expect(element.querySelector('[role=alert]')?.textContent?.trim()).toBe(
      'That is not your current password.',
    );
    expect(session.token()).toBe('old-token');
  });

  it('signs out everywhere, ends this session too and goes to sign-in with a notice', async () => {
    const signOutEverywhere = jest.fn().mockResolvedValue(undefined);
    const { session, button, settle } = await render({ signOutEverywhere });
    button('Sign out everywhere').click();
    await settle();
    expect(signOutEverywhere).toHaveBeenCalled();
    expect(session.signedIn()).toBe(false);
    expect(TestBed.inject(Router).url).toBe('/sign-in?signedOut=everywhere');
  });

  it('offers an account without a password a mailed link to set one, instead of forms that ask for it', async () => {
    const requestPasswordReset = jest.fn().mockResolvedValue({});
    const { element, button, settle, input } = await render({
      accountDeletion: jest.fn().mockResolvedValue({ confirmWith: 'recent-sign-in', recentUntil: null }),
      requestPasswordReset,
    });
    await settle();
    expect(input('currentPassword')).toBeNull();
    expect(input('emailPassword')).toBeNull();
    expect(element.textContent).toContain('You have no password here: you sign in with Corp SSO.');
    button('Email me a link').click();
    await settle();
    expect(requestPasswordReset).toHaveBeenCalledWith({ email: 'robin@example.com' });
    expect(element.querySelector('[role=status]')?.textContent).toContain(
      'We mailed a link to robin@example.com.',
    );
  });

  it('downloads the archive as a file', async () => {
    const exportAccount = jest.fn().mockResolvedValue(new Blob(['zip'], { type: 'application/zip' }));
    const created = jest.fn().mockReturnValue('blob:archive');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: jest.fn() });
    const clicked: string[] = [];
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    const { button, settle } = await render({ exportAccount });
    button('Download your data').click();
    await settle();
    expect(exportAccount).toHaveBeenCalled();
    expect(clicked).toEqual([expect.stringMatching(/^sweatpants-export-\d{4}-\d\d-\d\d\.zip$/)]);
  });
});
