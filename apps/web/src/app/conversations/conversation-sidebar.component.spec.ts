import { Component } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { provideRouter, Router } from '@angular/router';
import type { Conversation } from '@sweatpants/domain';

import { ApiError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { SessionService } from '../core/session.service';
import { ConversationListService, LIST_PAGE, SEARCH_DELAY_MS } from './conversation-list.service';
import { ConversationSidebarComponent } from './conversation-sidebar.component';
import { ConversationArchiveApi } from './conversation-archive-api';
import { UNDO_WINDOW_MS } from './pending-archives';
import { UndoToastComponent } from './undo-toast.component';
import { useAgents } from './agents-fixture';
import { A_USER } from '../../testing/signed-in';

const NOW = new Date('2026-03-10T12:00:00.000Z').getTime();
const conversation = (
  id: string,
  title: string,
  minutesAgo: number,
  agent: Conversation['agent'] = 'tidying',
) =>
  ({
    id,
    agent,
    title,
    ownerId: 'u-1',
    head: 'h',
    status: 'waiting',
    pendingElicit: null,
    pendingElicits: [],
    model: 'offline',
    createdAt: '2026-01-01T12:00:00.000Z',
    updatedAt: new Date(NOW - minutesAgo * 60_000).toISOString(),
  }) satisfies Conversation;

const garage = conversation('a', 'The garage', 5);
const fresh = conversation('b', '', 90, 'concierge');
const hall = conversation('c', 'The hall closet', 60 * 24 * 40);

@Component({ template: '' })
class BlankComponent {}

async function render(items: Conversation[] = [garage, fresh, hall], next: string | null = null) {
  const api = {
    listConversations: jest.fn().mockResolvedValue({ items, next }),
    rename: jest.fn().mockImplementation(async (id: string, { title }: { title: string }) => ({
      ...items.find((c) => c.id === id)!,
      title,
    })),
    archive: jest.fn().mockResolvedValue(undefined),
  };
  const archiveApi = {
    archived: jest.fn().mockResolvedValue({ items: [], next: null }),
    unarchive: jest.fn(),
  };
  TestBed.configureTestingModule({
    providers: [
      provideRouter([
        { path: '', component: BlankComponent },
        { path: 'c/:id', component: BlankComponent, children: [{ path: '**', component: BlankComponent }] },
      ]),
      { provide: ApiService, useValue: api },
      { provide: ConversationArchiveApi, useValue: archiveApi },
    ],
  });
  TestBed.inject(SessionService).start({
    token: 't',
    user: A_USER,
  });
  useAgents();
  const fixture = TestBed.createComponent(ConversationSidebarComponent);
  const toast = TestBed.createComponent(UndoToastComponent);
  // Both in the document (a second fixture replaces the first's root), so focus can be checked.
  document.body.append(fixture.nativeElement as HTMLElement, toast.nativeElement as HTMLElement);
  const settle = async () => {
    await jest.advanceTimersByTimeAsync(0);
    fixture.detectChanges();
    toast.detectChanges();
  };
  await settle();
  const element = fixture.nativeElement as HTMLElement;
  const titles = () =>
    Array.from(element.querySelectorAll('.conversation__title')).map((t) => t.textContent?.trim());
  const menuItem = (name: string) =>
    Array.from(document.querySelectorAll<HTMLButtonElement>('[role=menuitem]')).find(
      (b) => b.textContent?.trim() === name,
    );
  /** Opens the ⋯ menu of the item titled `title` and picks `action`. */
  const act = async (title: string, action: string) => {
    const trigger = Array.from(element.querySelectorAll<HTMLButtonElement>('button.item__actions')).find(
      (b) => b.getAttribute('aria-label') === `Actions for ${title}`,
    );
    trigger!.click();
    fixture.detectChanges();
    menuItem(action)!.click();
    await settle();
  };
  const buttonNamed = (name: string) =>
    Array.from(element.querySelectorAll<HTMLButtonElement>('button')).find(
      (b) => (b.getAttribute('aria-label') ?? b.textContent?.trim()) === name,
    );
  const archivedTitles = () =>
    Array.from(element.querySelectorAll('.archived__title')).map((t) => t.textContent?.trim());
  return { fixture, toast, element, api, archiveApi, titles, archivedTitles, buttonNamed, act, settle };
}

describe('ConversationSidebarComponent', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    jest.setSystemTime(NOW);
    // Archives still waiting when a test ends go out with fetch (keepalive).
    Object.defineProperty(globalThis, 'fetch', {
      value: jest.fn().mockResolvedValue({}),
      configurable: true,
    });
  });
  afterEach(() => {
    jest.useRealTimers();
    localStorage.clear();
    document.body.replaceChildren();
  });

  it('is the Conversations landmark, with the items in the order the api gives', async () => {
    const { element, api, titles } = await render();
    expect(element.querySelector('nav')?.getAttribute('aria-label')).toBe('Conversations');
    expect(api.listConversations).toHaveBeenCalledWith({ limit: LIST_PAGE });
    expect(titles()).toEqual(['The garage', 'New conversation', 'The hall closet']);
    const metas = Array.from(element.querySelectorAll('.conversation__meta')).map((m) =>
      Array.from(m.children)
        .filter((part) => part.getAttribute('aria-hidden') !== 'true')
        .map((part) => part.textContent?.trim()),
    );
    expect(metas[0]).toEqual(['Tidying coach', '5 min']);
    expect(metas[1]).toEqual(['Concierge', '1 h']);
    expect(element.querySelector('time')?.getAttribute('datetime')).toBe(garage.updatedAt);
    expect(element.querySelector('.conversation__title--new')?.textContent?.trim()).toBe('New conversation');
    expect(element.querySelector('a.button.new')?.textContent?.trim()).toBe('New conversation');
  });

  it('marks the open conversation with aria-current', async () => {
    const { element, settle } = await render();
    await TestBed.inject(Router).navigateByUrl('/c/b/tree');
    await settle();
    const current = element.querySelectorAll('a[aria-current=page]');
    expect(current).toHaveLength(1);
    expect(current[0]?.getAttribute('href')).toBe('/c/b');
  });

  it('searches by title once typing pauses, with q', async () => {
    const { element, api } = await render();
    const search = element.querySelector<HTMLInputElement>('input[type=search]')!;
    expect(element.querySelector(`label[for="${search.id}"]`)?.textContent).toBe('Search conversations');
    api.listConversations.mockClear();
    for (const typed of ['g', 'ga', 'garage']) {
      search.value = typed;
      search.dispatchEvent(new Event('input'));
      await jest.advanceTimersByTimeAsync(SEARCH_DELAY_MS / 2);
    }
    expect(api.listConversations).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(SEARCH_DELAY_MS);
    expect(api.listConversations).toHaveBeenCalledTimes(1);
    expect(api.listConversations).toHaveBeenCalledWith({ q: 'garage', limit: LIST_PAGE });
  });

  it('says so when no title matches', async () => {
    const { element, api, settle } = await render();
    api.listConversations.mockResolvedValue({ items: [], next: null });
    TestBed.inject(ConversationListService).search('attic');
    await jest.advanceTimersByTimeAsync(SEARCH_DELAY_MS);
    await settle();
    expect(element.textContent).toContain('No conversation titles match “attic”.');
  });

  it('renames from the item menu; Enter saves, an empty title is refused in words', async () => {
    const { fixture, element, api, titles, act, settle } = await render();
    await act('The garage', 'Rename');
    const input = element.querySelector<HTMLInputElement>('app-title-editor input')!;
    expect(input.value).toBe('The garage');
    expect(document.activeElement).toBe(input);
    const form = element.querySelector<HTMLFormElement>('app-title-editor form')!;
    input.value = '   ';
    input.dispatchEvent(new Event('input'));
    form.dispatchEvent(new Event('submit'));
    await settle();
    expect(api.rename).not.toHaveBeenCalled();
    expect(element.querySelector('[role=alert]')?.textContent).toContain('Enter a title');
    expect(input.getAttribute('aria-invalid')).toBe('true');

    input.value = 'Garage, winter';
    input.dispatchEvent(new Event('input'));
    form.dispatchEvent(new Event('submit'));
    await settle();
    fixture.detectChanges();
    expect(api.rename).toHaveBeenCalledWith('a', { title: 'Garage, winter' });
    expect(titles()).toEqual(['Garage, winter', 'New conversation', 'The hall closet']);
    expect(element.querySelector('app-title-editor')).toBeNull();
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Actions for Garage, winter');
  });

  it('Escape leaves the title as it was; an api refusal is said plainly and the edit stays open', async () => {
    const { element, api, titles, act, settle } = await render();
    await act('The garage', 'Rename');
    let input = element.querySelector<HTMLInputElement>('app-title-editor input')!;
    input.value = 'Something else';
    input.dispatchEvent(new Event('input'));
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await settle();
    expect(element.querySelector('app-title-editor')).toBeNull();
    expect(titles()[0]).toBe('The garage');

    api.rename.mockRejectedValueOnce(new ApiError({ code: 'rate_limited', message: 'slow down' }, 429));
    await act('The garage', 'Rename');
    input = element.querySelector<HTMLInputElement>('app-title-editor input')!;
    input.value = 'Garage';
    input.dispatchEvent(new Event('input'));
    element.querySelector<HTMLFormElement>('app-title-editor form')!.dispatchEvent(new Event('submit'));
    await settle();
    expect(element.querySelector('app-title-editor [role=alert]')?.textContent).toContain('Too many tries');
  });

  it('archives with Undo: hidden at once, back on Undo, archived only when the toast ends', async () => {
    const { toast, api, titles, act, settle } = await render();
    const toastElement = toast.nativeElement as HTMLElement;
    const menuItems = async () => {
      const trigger = document.querySelector<HTMLButtonElement>(
        'button[aria-label="Actions for The garage"]',
      )!;
      trigger.click();
      await settle();
      const names = Array.from(document.querySelectorAll('[role=menuitem]')).map((b) =>
        b.textContent?.trim(),
      );
      trigger.click();
      await settle();
      return names;
    };
    // What it does, said as such: nothing here deletes.
    expect(await menuItems()).toEqual(['Rename', 'Archive']);
    await act('The garage', 'Archive');
    expect(titles()).toEqual(['New conversation', 'The hall closet']);
    // The menu's trigger went with the item: the keyboard carries on at the next one.
    expect(document.activeElement?.getAttribute('href')).toBe('/c/b');
    expect(toastElement.querySelector('[role=status]')?.textContent).toContain("Archived 'The garage'");
    expect(toastElement.textContent).not.toContain('Deleted');
    toastElement.querySelector<HTMLButtonElement>('button')!.click();
    await settle();
    expect(titles()).toEqual(['The garage', 'New conversation', 'The hall closet']);
    await jest.advanceTimersByTimeAsync(UNDO_WINDOW_MS * 2);
    expect(api.archive).not.toHaveBeenCalled();

    await act('The garage', 'Archive');
    await jest.advanceTimersByTimeAsync(UNDO_WINDOW_MS);
    await settle();
    expect(api.archive).toHaveBeenCalledWith('a');
    expect(titles()).toEqual(['New conversation', 'The hall closet']);
    expect(toastElement.querySelector('[role=status]')?.textContent?.trim()).toBe('');
  });

  it('archiving the open conversation goes home; Undo comes back to it', async () => {
    const { toast, titles, act, settle } = await render();
    const router = TestBed.inject(Router);
    await router.navigateByUrl('/c/a');
    await settle();
    await act('The garage', 'Archive');
    await settle();
    expect(router.url).toBe('/');
    (toast.nativeElement as HTMLElement).querySelector<HTMLButtonElement>('button')!.click();
    await settle();
    expect(router.url).toBe('/c/a');
    expect(titles()).toEqual(['The garage', 'New conversation', 'The hall closet']);
  });

  it('lists what was archived under Archived, newest first, and unarchives one back into the list', async () => {
    const { api, archiveApi, titles, archivedTitles, buttonNamed, act, settle } = await render();
    const shelved = { ...conversation('d', 'The shed', 60 * 24 * 3), archivedAt: '2026-03-09T12:00:00.000Z' };
    archiveApi.archived.mockResolvedValue({ items: [shelved], next: null });
    const toggle = buttonNamed('Archived')!;
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    toggle.click();
    await settle();
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(archiveApi.archived).toHaveBeenCalled();
    expect(archivedTitles()).toEqual(['The shed']);

    // One archived just now is there at once, before the api lists it; Unarchive on it is Undo.
    await act('The garage', 'Archive');
    expect(archivedTitles()).toEqual(['The garage', 'The shed']);
    buttonNamed('Unarchive The garage')!.click();
    await settle();
    expect(archivedTitles()).toEqual(['The shed']);
    expect(titles()).toEqual(['The garage', 'New conversation', 'The hall closet']);
    await jest.advanceTimersByTimeAsync(UNDO_WINDOW_MS * 2);
    expect(api.archive).not.toHaveBeenCalled();

    // One the api archived: POST …/unarchive, then it is in the list again.
    archiveApi.unarchive.mockResolvedValue({ ...shelved, archivedAt: null });
    api.listConversations.mockResolvedValue({ items: [garage, fresh, hall, shelved], next: null });
    buttonNamed('Unarchive The shed')!.click();
    await settle();
    await settle();
    expect(archiveApi.unarchive).toHaveBeenCalledWith('d');
    expect(archivedTitles()).toEqual([]);
    expect(titles()).toContain('The shed');
  });

  it('says so in words when unarchiving fails, and keeps it under Archived', async () => {
    const { element, archiveApi, archivedTitles, buttonNamed, settle } = await render();
    const shelved = { ...conversation('d', 'The shed', 60), archivedAt: '2026-03-09T12:00:00.000Z' };
    archiveApi.archived.mockResolvedValue({ items: [shelved], next: null });
    archiveApi.unarchive.mockRejectedValue(new ApiError({ code: 'not_found', message: 'gone' }, 404));
    buttonNamed('Archived')!.click();
    await settle();
    buttonNamed('Unarchive The shed')!.click();
    await settle();
    expect(archivedTitles()).toEqual(['The shed']);
    expect(element.querySelector('.archived [role=alert]')?.textContent).toContain(
      "Could not unarchive 'The shed'.",
    );
  });

  it('shows more with the next cursor, after what is there', async () => {
    const { element, api, titles, settle } = await render([garage], 'cursor-1');
    api.listConversations.mockResolvedValueOnce({ items: [hall], next: null });
    const more = Array.from(element.querySelectorAll('button')).find(
      (b) => b.textContent?.trim() === 'Show more',
    );
    more!.click();
    await settle();
    expect(api.listConversations).toHaveBeenLastCalledWith({ limit: LIST_PAGE, before: 'cursor-1' });
    expect(titles()).toEqual(['The garage', 'The hall closet']);
    expect(
      Array.from(element.querySelectorAll('button')).some((b) => b.textContent?.includes('Show more')),
    ).toBe(false);
  });

  it('moves a conversation to the top when it is touched, then reads the list again', async () => {
    const { api, titles, settle } = await render();
    api.listConversations.mockClear();
    TestBed.inject(ConversationListService).touched('c');
    await settle();
    expect(titles()).toEqual(['The hall closet', 'The garage', 'New conversation']);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(api.listConversations).toHaveBeenCalledTimes(1);
  });
});
