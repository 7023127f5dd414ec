import { TestBed } from '@angular/core/testing';
import type { AccessToken } from '@sweatpants/domain';

import { ApiError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { PersonalAccessTokensComponent } from './personal-access-tokens.component';

const laptop: AccessToken = {
  id: 't-1',
  name: 'laptop',
  createdAt: '2026-11-20T10:00:00.000Z',
  lastUsedAt: '2026-11-25T18:30:00.000Z',
};

/** The component on an ApiService of `api`'s calls (the api itself is the e2e's and the api spec's). */
async function render(api: Partial<Record<keyof ApiService, jest.Mock>>) {
  TestBed.configureTestingModule({ providers: [{ provide: ApiService, useValue: api }] });
  const fixture = TestBed.createComponent(PersonalAccessTokensComponent);
  const settle = async () => {
    await fixture.whenStable();
    fixture.detectChanges();
  };
  await settle();
  const element = fixture.nativeElement as HTMLElement;
  const button = (text: string, within: ParentNode = element) =>
    Array.from(within.querySelectorAll('button')).find((b) => b.textContent?.trim() === text);
  const type = (value: string) => {
    const input = element.querySelector<HTMLInputElement>('input[name=tokenName]')!;
    input.value = value;
    input.dispatchEvent(new Event('input'));
  };
  return { element, button, type, settle };
}

describe('PersonalAccessTokensComponent', () => {
  it('lists each token by name with when it was made and last used, never the token', async () => {
    const { element } = await render({
      accessTokens: jest
        .fn()
        .mockResolvedValue({ items: [laptop, { ...laptop, id: 't-2', name: 'ci', lastUsedAt: null }] }),
    });
    const items = Array.from(element.querySelectorAll('li')).map((li) =>
      li.textContent?.replace(/\s+/g, ' ').trim(),
    );
    expect(items[0]).toMatch(/^laptop Created Nov 20, 2026 · last used Nov 25, 2026, .* Revoke laptop$/);
    expect(items[1]).toMatch(/^ci Created .* · never used Revoke ci$/);
  });

  it('shows a new token once, with Copy, and lists it; Done takes it off the page', async () => {
    const created = { id: 't-3', name: 'mcp', token: 'spat_secret', createdAt: laptop.createdAt };
    const accessTokens = jest
      .fn()
      .mockResolvedValueOnce({ items: [] })
      .mockResolvedValue({ items: [{ ...created, token: undefined, lastUsedAt: null }] });
    const createAccessToken = jest.fn().mockResolvedValue(created);
    const { element, button, type, settle } = await render({ accessTokens, createAccessToken });

    expect(button('Create token')?.disabled).toBe(true);
    type('  mcp ');
    await settle();
    button('Create token')!.click();
    await settle();

    expect(createAccessToken).toHaveBeenCalledWith({ name: 'mcp' });
    expect(element.querySelector<HTMLInputElement>('#created-token')?.value).toBe('spat_secret');
    expect(element.querySelector('[role=status]')?.textContent).toContain("won't be shown again");
    expect(button('Copy token')).toBeDefined();
    expect(element.querySelector('li')?.textContent).toContain('mcp');

    button("Done, I've copied it")!.click();
    await settle();
    expect(element.textContent).not.toContain('spat_secret');
  });

  it('puts the person on the new token as soon as it shows, before the list is read again', async () => {
    const created = { id: 't-3', name: 'mcp', token: 'spat_secret', createdAt: laptop.createdAt };
    // The list's second reading never answers: the token is on screen all the same.
    const accessTokens = jest
      .fn()
      .mockResolvedValueOnce({ items: [] })
      .mockReturnValue(new Promise(() => undefined));
    const createAccessToken = jest.fn().mockResolvedValue(created);
    const { element, button, type, settle } = await render({ accessTokens, createAccessToken });
    document.body.appendChild(element);
    type('mcp');
    await settle();
    button('Create token')!.click();
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      TestBed.tick();
    }
    expect(accessTokens).toHaveBeenCalledTimes(2);
    expect(document.activeElement).toBe(element.querySelector('#created-token'));
    element.remove();
  });

  it('revokes only after the question is answered Revoke; Keep it keeps it', async () => {
    const accessTokens = jest
      .fn()
      .mockResolvedValueOnce({ items: [laptop] })
      .mockResolvedValue({ items: [] });
    const revokeAccessToken = jest.fn().mockResolvedValue(undefined);
    const { element, button, settle } = await render({ accessTokens, revokeAccessToken });

    button('Revoke laptop')!.click();
    await settle();
    const dialog = element.querySelector('[role=alertdialog]')!;
    expect(dialog.textContent).toContain('Revoke “laptop”? Anything using it stops working at once.');
    button('Keep it', dialog)!.click();
    await settle();
    expect(element.querySelector('[role=alertdialog]')).toBeNull();
    expect(revokeAccessToken).not.toHaveBeenCalled();

    button('Revoke laptop')!.click();
    await settle();
    button('Revoke', element.querySelector('[role=alertdialog]')!)!.click();
    await settle();
    expect(revokeAccessToken).toHaveBeenCalledWith('t-1');
    expect(element.querySelector('[role=status]')?.textContent).toContain('“laptop” is revoked');
    expect(element.textContent).toContain('You have no tokens.');
  });

  it('says a refused name in plain words, at the form', async () => {
    const createAccessToken = jest.fn().mockRejectedValue(
      new ApiError(
        {
          code: 'invalid_request',
          message: 'invalid',
          details: [{ field: 'name', message: 'at most 100 characters' }],
        },
        400,
      ),
    );
    const { element, button, type, settle } = await render({
      accessTokens: jest.fn().mockResolvedValue({ items: [] }),
      createAccessToken,
    });
    type('x'.repeat(100));
    await settle();
    button('Create token')!.click();
    await settle();
    expect(element.querySelector('[role=alert]')?.textContent?.trim()).toBe(
      'Use a shorter name (100 characters at most).',
    );
  });
});
