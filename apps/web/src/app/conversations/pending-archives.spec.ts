import { Component } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { provideRouter, Router } from '@angular/router';
import type { Conversation } from '@sweatpants/domain';

import { ApiError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { SessionService } from '../core/session.service';
import { PendingArchives, UNDO_WINDOW_MS } from './pending-archives';
import { A_USER } from '../../testing/signed-in';

const conversation = (id: string, title: string): Conversation => ({
  id,
  agent: 'tidying',
  title,
  ownerId: 'u-1',
  head: 'h',
  status: 'waiting',
  pendingElicit: null,
  pendingElicits: [],
  model: 'offline',
  createdAt: '2026-01-01T12:00:00.000Z',
  updatedAt: '2026-01-01T12:00:00.000Z',
});
const garage = conversation('c-garage', 'The garage');
const hall = conversation('c-hall', 'The hall closet');

@Component({ template: '' })
class BlankComponent {}

function setup() {
  const api = { archive: jest.fn().mockResolvedValue(undefined) };
  const fetch = jest.fn().mockResolvedValue({ ok: true });
  Object.defineProperty(globalThis, 'fetch', { value: fetch, configurable: true, writable: true });
  TestBed.configureTestingModule({
    providers: [
      provideRouter([
        { path: '', component: BlankComponent },
        { path: 'c/:id', component: BlankComponent },
        { path: 'account', component: BlankComponent },
      ]),
      { provide: ApiService, useValue: api },
    ],
  });
  TestBed.inject(SessionService).start({
    token: 'tok',
    user: A_USER,
  });
  return { archives: TestBed.inject(PendingArchives), api, fetch, router: TestBed.inject(Router) };
}

describe('PendingArchives', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    jest.useRealTimers();
    localStorage.clear();
  });

  it('hides at once and sends the DELETE (which archives) only when the undo window ends', async () => {
    const { archives, api } = setup();
    archives.archive(garage);
    expect(archives.hidden().has(garage.id)).toBe(true);
    expect(archives.latest()).toEqual(garage);
    await jest.advanceTimersByTimeAsync(UNDO_WINDOW_MS - 1);
    expect(api.archive).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(api.archive).toHaveBeenCalledWith(garage.id);
    expect(archives.latest()).toBeNull();
    // Sent and archived: still hidden until the list is read again without it, and listed as done.
    expect(archives.done()).toEqual([garage]);
    expect(archives.hidden().has(garage.id)).toBe(true);
  });

  it('Undo takes it back, and nothing is ever sent', async () => {
    const { archives, api } = setup();
    archives.archive(garage);
    expect(archives.undo(garage.id)).toBe(true);
    expect(archives.hidden().size).toBe(0);
    expect(archives.latest()).toBeNull();
    await jest.advanceTimersByTimeAsync(UNDO_WINDOW_MS * 3);
    expect(api.archive).not.toHaveBeenCalled();
    expect(archives.undo(garage.id)).toBe(false);
  });

  it('keeps a timer per archive; the toast offers the latest', async () => {
    const { archives, api } = setup();
    archives.archive(garage);
    await jest.advanceTimersByTimeAsync(2_000);
    archives.archive(hall);
    expect(archives.latest()).toEqual(hall);
    await jest.advanceTimersByTimeAsync(UNDO_WINDOW_MS - 2_000);
    expect(api.archive).toHaveBeenCalledTimes(1);
    expect(api.archive).toHaveBeenCalledWith(garage.id);
    expect(archives.latest()).toEqual(hall);
    archives.undo(hall.id);
    await jest.advanceTimersByTimeAsync(UNDO_WINDOW_MS);
    expect(api.archive).toHaveBeenCalledTimes(1);
  });

  it('brings the conversation back and says so in plain words when the api refuses', async () => {
    const { archives, api } = setup();
    api.archive.mockRejectedValueOnce(
      new ApiError({ code: 'not_found', message: 'no such conversation' }, 404),
    );
    archives.archive(garage);
    await jest.advanceTimersByTimeAsync(UNDO_WINDOW_MS);
    expect(archives.hidden().has(garage.id)).toBe(false);
    expect(archives.error()).toBe(
      "Could not archive 'The garage'. Not found: it doesn't exist, or it isn't yours.",
    );
  });

  it('on pagehide sends what waits at once, with keepalive and the bearer token', async () => {
    const { archives, api, fetch } = setup();
    archives.archive(garage);
    archives.archive(hall);
    window.dispatchEvent(new Event('pagehide'));
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(fetch).toHaveBeenCalledWith('/api/conversations/c-garage', {
      method: 'DELETE',
      keepalive: true,
      headers: { Authorization: 'Bearer tok' },
    });
    expect(archives.latest()).toBeNull();
    expect(archives.hidden()).toEqual(new Set([garage.id, hall.id]));
    expect(archives.done()).toEqual([hall, garage]);
    // The window's own timers are gone: nothing is sent twice.
    await jest.advanceTimersByTimeAsync(UNDO_WINDOW_MS);
    expect(api.archive).not.toHaveBeenCalled();
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('sends what waits when the app is torn down', () => {
    const { archives, fetch } = setup();
    archives.archive(garage);
    TestBed.resetTestingModule();
    expect(fetch).toHaveBeenCalledWith(
      '/api/conversations/c-garage',
      expect.objectContaining({ keepalive: true }),
    );
  });

  it('Undo of the conversation that was open brings the person back to it', async () => {
    const { archives, router } = setup();
    await router.navigateByUrl('/c/c-garage');
    archives.archive(garage, true);
    // What the sidebar does: the archived conversation is not left on screen.
    await router.navigateByUrl('/');
    expect(archives.undo(garage.id)).toBe(true);
    await jest.advanceTimersByTimeAsync(0);
    expect(router.url).toBe('/c/c-garage');
  });

  it('Undo leaves the person where they went since, and of one that was not open, where they are', async () => {
    const { archives, router } = setup();
    archives.archive(garage, true);
    await router.navigateByUrl('/account');
    archives.undo(garage.id);
    await jest.advanceTimersByTimeAsync(0);
    expect(router.url).toBe('/account');

    await router.navigateByUrl('/');
    archives.archive(hall);
    archives.undo(hall.id);
    await jest.advanceTimersByTimeAsync(0);
    expect(router.url).toBe('/');
  });

  it('lets an unarchived conversation be listed again', async () => {
    const { archives } = setup();
    archives.archive(garage);
    await jest.advanceTimersByTimeAsync(UNDO_WINDOW_MS);
    expect(archives.hidden().has(garage.id)).toBe(true);
    archives.restored(garage.id);
    expect(archives.hidden().has(garage.id)).toBe(false);
    expect(archives.done()).toEqual([]);
  });
});
