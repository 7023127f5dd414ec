import { TestBed } from '@angular/core/testing';
import type { Passkey } from '@sweatpants/domain';

import { ApiError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { PasskeysComponent } from './passkeys.component';

const laptop: Passkey = {
  id: 'p-1',
  name: 'this laptop',
  createdAt: '2026-11-20T10:00:00.000Z',
  lastUsedAt: '2026-11-25T18:30:00.000Z',
};

/** The component on an ApiService of `api`'s calls (the passkey ceremonies are the e2e's, in Chromium). */
async function render(api: Partial<Record<keyof ApiService, jest.Mock>>) {
  TestBed.configureTestingModule({ providers: [{ provide: ApiService, useValue: api }] });
  const fixture = TestBed.createComponent(PasskeysComponent);
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

describe('PasskeysComponent', () => {
  it('lists each passkey by name with when it was added and last used', async () => {
    const { element } = await render({
      passkeys: jest
        .fn()
        .mockResolvedValue({ items: [laptop, { ...laptop, id: 'p-2', name: 'phone', lastUsedAt: null }] }),
    });
    const items = Array.from(element.querySelectorAll('li')).map((li) =>
      li.textContent?.replace(/\s+/g, ' ').trim(),
    );
    expect(items[0]).toMatch(
      /^this laptop Added Nov 20, 2026 · last used Nov 25, 2026, .* Remove this laptop$/,
    );
    expect(items[1]).toMatch(/^phone Added .* · never used Remove phone$/);
  });

  it('says so where the browser cannot make passkeys, and offers no form', async () => {
    // jsdom has no WebAuthn, as an old browser or an insecure page has none.
    const { element, button } = await render({ passkeys: jest.fn().mockResolvedValue({ items: [] }) });
    expect(element.textContent).toContain('This browser cannot make passkeys.');
    expect(button('Add a passkey')).toBeUndefined();
    expect(element.textContent).toContain('You have no passkeys.');
  });

  it("removes only after Remove is confirmed, and shows the api's refusal of the last way to sign in", async () => {
    const refusal =
      'this passkey is your last way to sign in: add another passkey or set a password before removing it';
    const removePasskey = jest
      .fn()
      .mockRejectedValue(new ApiError({ code: 'conflict', message: refusal }, 409));
    const passkeys = jest.fn().mockResolvedValue({ items: [laptop] });
    const { element, button, settle } = await render({ passkeys, removePasskey });

    button('Remove this laptop')!.click();
    await settle();
    expect(element.querySelector('[role=alertdialog]')?.textContent).toContain(
      'Remove “this laptop”? It will no longer sign you in.',
    );
    button('Keep it')!.click();
    await settle();
    expect(element.querySelector('[role=alertdialog]')).toBeNull();
    expect(removePasskey).not.toHaveBeenCalled();

    button('Remove this laptop')!.click();
    await settle();
    button('Remove')!.click();
    await settle();
    expect(removePasskey).toHaveBeenCalledWith('p-1');
    expect(element.querySelector('[role=alert]')?.textContent?.trim()).toBe(refusal);
    expect(element.querySelector('li')?.textContent).toContain('this laptop');
  });
});
