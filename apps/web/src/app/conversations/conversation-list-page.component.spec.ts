import { TestBed } from '@angular/core/testing';
import { provideRouter } from '@angular/router';
import type { Conversation } from '@sweatpants/domain';

import { ApiService } from '../core/api.service';
import { ConversationListPageComponent } from './conversation-list-page.component';

const conversation = (id: string, title: string): Conversation => ({
  id,
  agent: 'tidying',
  title,
  ownerId: 'u',
  head: 'h',
  status: 'waiting',
  pendingElicit: null,
  model: 'offline',
  createdAt: '2026-01-01T12:00:00.000Z',
  updatedAt: '2026-01-01T12:00:00.000Z',
});

async function render() {
  const api = {
    listConversations: jest.fn().mockResolvedValue({
      items: [conversation('a', 'The garage'), conversation('b', 'The hall closet')],
      next: null,
    }),
    rename: jest
      .fn()
      .mockImplementation(async (id: string, { title }: { title: string }) => conversation(id, title)),
    archive: jest.fn().mockResolvedValue(undefined),
  };
  TestBed.configureTestingModule({ providers: [provideRouter([]), { provide: ApiService, useValue: api }] });
  const fixture = TestBed.createComponent(ConversationListPageComponent);
  await jest.advanceTimersByTimeAsync(0);
  fixture.detectChanges();
  const element = fixture.nativeElement as HTMLElement;
  const titles = () => Array.from(element.querySelectorAll('.conversation__title')).map((t) => t.textContent);
  const button = (name: string) =>
    Array.from(element.querySelectorAll<HTMLButtonElement>('button')).find((b) =>
      b.textContent?.replace(/\s+/g, ' ').trim().startsWith(name),
    );
  return { fixture, element, api, titles, button };
}

describe('ConversationListPageComponent', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('lists in the order the api gives (last activity first)', async () => {
    const { titles } = await render();
    expect(titles()).toEqual(['The garage', 'The hall closet']);
  });

  it('hides a deleted conversation at once, brings it back on Undo, and archives it only when Undo ends', async () => {
    const { fixture, api, titles, button } = await render();
    button('Delete')?.click();
    fixture.detectChanges();
    expect(titles()).toEqual(['The hall closet']);
    button('Undo')?.click();
    fixture.detectChanges();
    expect(titles()).toEqual(['The garage', 'The hall closet']);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(api.archive).not.toHaveBeenCalled();

    button('Delete')?.click();
    fixture.detectChanges();
    await jest.advanceTimersByTimeAsync(6_000);
    fixture.detectChanges();
    expect(api.archive).toHaveBeenCalledWith('a');
    expect(titles()).toEqual(['The hall closet']);
  });

  it('archives a pending delete when the page is left', async () => {
    const { fixture, api, button } = await render();
    button('Delete')?.click();
    fixture.destroy();
    expect(api.archive).toHaveBeenCalledWith('a');
  });

  it('searches titles after typing pauses', async () => {
    const { element, api } = await render();
    const input = element.querySelector<HTMLInputElement>('input[type=search]');
    input!.value = 'garage';
    input!.dispatchEvent(new Event('input'));
    await jest.advanceTimersByTimeAsync(300);
    expect(api.listConversations).toHaveBeenLastCalledWith({ q: 'garage' });
  });

  it('renames in place, and refuses an empty title in plain words', async () => {
    const { fixture, element, api, titles, button } = await render();
    button('Rename')?.click();
    fixture.detectChanges();
    const input = element.querySelector<HTMLInputElement>('form.rename input');
    input!.value = '   ';
    element.querySelector<HTMLFormElement>('form.rename')!.dispatchEvent(new Event('submit'));
    fixture.detectChanges();
    expect(api.rename).not.toHaveBeenCalled();
    expect(element.textContent).toContain('A title needs at least one character.');
    input!.value = 'Garage, winter';
    element.querySelector<HTMLFormElement>('form.rename')!.dispatchEvent(new Event('submit'));
    await jest.advanceTimersByTimeAsync(0);
    fixture.detectChanges();
    expect(api.rename).toHaveBeenCalledWith('a', { title: 'Garage, winter' });
    expect(titles()).toEqual(['Garage, winter', 'The hall closet']);
  });
});
