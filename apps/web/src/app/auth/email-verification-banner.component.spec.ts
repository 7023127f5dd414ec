import { TestBed } from '@angular/core/testing';

import { ApiService } from '../core/api.service';
import { SessionService } from '../core/session.service';
import { EmailVerificationBannerComponent } from './email-verification-banner.component';

/** The reminder above every page while the signed-in person's email is unproven. */

const unproven = (id: string, email: string) => ({
  token: 't',
  user: { id, email, displayName: 'A', role: 'user' as const, emailVerified: false },
});

async function shown(api: Partial<ApiService> = {}) {
  TestBed.configureTestingModule({ providers: [{ provide: ApiService, useValue: api }] });
  const session = TestBed.inject(SessionService);
  session.start(unproven('u-1', 'a@example.com'));
  const fixture = TestBed.createComponent(EmailVerificationBannerComponent);
  fixture.autoDetectChanges();
  await fixture.whenStable();
  const element = fixture.nativeElement as HTMLElement;
  const button = (label: string) =>
    Array.from(element.querySelectorAll('button')).find((b) => b.textContent?.trim() === label);
  return { element, session, fixture, button };
}

describe('EmailVerificationBannerComponent', () => {
  afterEach(() => {
    sessionStorage.clear();
    localStorage.clear();
  });

  it('says where the link went, and sends it again on asking', async () => {
    const resendEmailVerification = jest.fn().mockResolvedValue(undefined);
    const { element, fixture, button } = await shown({ resendEmailVerification });
    expect(element.textContent).toContain('we sent a link to a@example.com');
    button('Send it again')!.click();
    await fixture.whenStable();
    expect(resendEmailVerification).toHaveBeenCalledTimes(1);
    expect(element.textContent).toContain('A new link is on its way.');
  });

  it('goes for this tab with "Later", and comes back for another account signed in here', async () => {
    const { element, session, fixture, button } = await shown();
    button('Later')!.click();
    await fixture.whenStable();
    expect(element.querySelector('.banner')).toBeNull();

    session.start(unproven('u-2', 'b@example.com'));
    await fixture.whenStable();
    expect(element.textContent).toContain('we sent a link to b@example.com');
  });

  it('comes back in a new tab: put off in this one only', async () => {
    const first = await shown();
    first.button('Later')!.click();
    await first.fixture.whenStable();
    // a new tab starts with its own session storage
    sessionStorage.clear();
    TestBed.resetTestingModule();
    const second = await shown();
    expect(second.element.querySelector('.banner')).not.toBeNull();
  });
});
