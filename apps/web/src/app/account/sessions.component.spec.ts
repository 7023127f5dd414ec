import { TestBed } from '@angular/core/testing';
import type { AccountSession } from '@sweatpants/domain';

import { ApiService } from '../core/api.service';
import { SessionsComponent } from './sessions.component';

const here: AccountSession = {
  id: 's-1',
  device: 'Chrome on Linux',
  signedInWith: 'passkey',
  signedInAt: '2026-11-20T10:00:00.000Z',
  lastUsedAt: '2026-11-25T18:30:00.000Z',
  current: true,
};
const phone: AccountSession = {
  ...here,
  id: 's-2',
  device: 'Safari on iPhone',
  signedInWith: 'password',
  current: false,
};

async function render(api: Partial<Record<keyof ApiService, jest.Mock>>) {
  TestBed.configureTestingModule({ providers: [{ provide: ApiService, useValue: api }] });
  const fixture = TestBed.createComponent(SessionsComponent);
  const settle = async () => {
    await fixture.whenStable();
    fixture.detectChanges();
  };
  await settle();
  const element = fixture.nativeElement as HTMLElement;
  const button = (text: string) =>
    Array.from(element.querySelectorAll('button')).find((b) => b.textContent?.trim() === text);
  return { element, button, settle };
}

describe('SessionsComponent', () => {
  it('lists each device in words, how and when it signed in, marks this one and offers it no Sign out', async () => {
    const { element, button } = await render({
      sessions: jest.fn().mockResolvedValue({ items: [here, phone] }),
    });
    const items = Array.from(element.querySelectorAll('li')).map((li) =>
      li.textContent?.replace(/\s+/g, ' ').trim(),
    );
    expect(items[0]).toMatch(
      /^Chrome on Linux This device Signed in with a passkey on Nov 20, 2026 · last used Nov 25, 2026, .*$/,
    );
    expect(items[1]).toMatch(
      /^Safari on iPhone Signed in with your password on .* Sign out Safari on iPhone$/,
    );
    expect(button('Sign out Chrome on Linux')).toBeUndefined();
  });

  it('signs another device out and says so; the list no longer has it', async () => {
    const sessions = jest
      .fn()
      .mockResolvedValueOnce({ items: [here, phone] })
      .mockResolvedValue({ items: [here] });
    const revokeSession = jest.fn().mockResolvedValue(undefined);
    const { element, button, settle } = await render({ sessions, revokeSession });

    button('Sign out Safari on iPhone')!.click();
    await settle();
    expect(revokeSession).toHaveBeenCalledWith('s-2');
    expect(element.querySelector('[role=status]')?.textContent).toContain('Safari on iPhone is signed out.');
    expect(element.textContent).not.toContain('Safari on iPhone Signed in');
    expect(element.querySelectorAll('li')).toHaveLength(1);
  });
});
