import { TestBed } from '@angular/core/testing';
import { provideRouter, Router } from '@angular/router';
import type { AccountDeletionInfo } from '@sweatpants/domain';

import { ApiError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { A_USER, BlankComponent } from '../../testing/signed-in';
import { SessionService } from '../core/session.service';
import { DeleteAccountComponent } from './delete-account.component';

const user = A_USER;
const inMinutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();

async function render(how: AccountDeletionInfo, deleteAccount = jest.fn().mockResolvedValue(undefined)) {
  TestBed.configureTestingModule({
    providers: [
      provideRouter([{ path: 'sign-in', component: BlankComponent }]),
      { provide: ApiService, useValue: { deleteAccount } },
    ],
  });
  const session = TestBed.inject(SessionService);
  session.start({ token: 'a-token', user });
  const fixture = TestBed.createComponent(DeleteAccountComponent);
  // As the account page hands it in, once the api has said.
  fixture.componentRef.setInput('how', how);
  const settle = async () => {
    await fixture.whenStable();
    fixture.detectChanges();
  };
  await settle();
  const element = fixture.nativeElement as HTMLElement;
  const button = (text: string) =>
    Array.from(element.querySelectorAll('button')).find((b) => b.textContent?.trim() === text);
  const beSure = async () => {
    const sure = element.querySelector<HTMLInputElement>('.check input')!;
    sure.checked = true;
    sure.dispatchEvent(new Event('change'));
    await settle();
  };
  return { element, session, button, settle, beSure, deleteAccount };
}

describe('DeleteAccountComponent', () => {
  afterEach(() => localStorage.clear());

  it('deletes the account only once the person says they understand, with their password', async () => {
    const { session, button, settle, beSure, element, deleteAccount } = await render({
      confirmWith: 'password',
      recentUntil: null,
    });
    expect(button('Delete my account')!.disabled).toBe(true);
    const password = element.querySelector<HTMLInputElement>('input[name=deletePassword]')!;
    password.value = 'correct horse battery';
    password.dispatchEvent(new Event('input'));
    await beSure();
    button('Delete my account')!.click();
    await settle();
    expect(deleteAccount).toHaveBeenCalledWith({ password: 'correct horse battery' });
    expect(session.signedIn()).toBe(false);
    expect(TestBed.inject(Router).url).toBe('/sign-in?signedOut=deleted');
  });

  it('deletes an account without a password on a recent sign-in, asking for no password', async () => {
    const { element, button, settle, beSure, deleteAccount } = await render({
      confirmWith: 'recent-sign-in',
      recentUntil: inMinutes(8),
    });
    expect(element.querySelector('input[name=deletePassword]')).toBeNull();
    expect(element.textContent).toContain('signing in a moment ago confirms it is you');
    await beSure();
    button('Delete my account')!.click();
    await settle();
    expect(deleteAccount).toHaveBeenCalledWith({});
    expect(TestBed.inject(Router).url).toBe('/sign-in?signedOut=deleted');
  });

  it('sends an account without a password whose sign-in is old to sign in again, and back here', async () => {
    const { element, session, button, settle } = await render({
      confirmWith: 'recent-sign-in',
      recentUntil: null,
    });
    expect(button('Delete my account')).toBeUndefined();
    expect(element.textContent).toContain('signing in again confirms it is you');
    button('Sign in again')!.click();
    await settle();
    expect(session.signedIn()).toBe(false);
    expect(TestBed.inject(Router).url).toBe('/sign-in?signedOut=confirm&returnUrl=%2Faccount');
  });

  it('offers to sign in again when the sign-in stopped being recent while the page was open', async () => {
    const refused = new ApiError(
      {
        code: 'invalid_request',
        message: 'sign in again to confirm it is you',
        details: [{ field: 'signIn', message: 'was more than 10 minutes ago' }],
      },
      400,
    );
    const { button, settle, beSure, session } = await render(
      { confirmWith: 'recent-sign-in', recentUntil: inMinutes(1) },
      jest.fn().mockRejectedValue(refused),
    );
    await beSure();
    button('Delete my account')!.click();
    await settle();
    expect(button('Sign in again')).toBeDefined();
    expect(session.signedIn()).toBe(true);
  });
});
