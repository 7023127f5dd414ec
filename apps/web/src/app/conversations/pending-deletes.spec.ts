import { TestBed } from '@angular/core/testing';
import type { Conversation } from '@sweatpants/domain';

import { ApiError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { SessionService } from '../core/session.service';
import { PendingDeletes, UNDO_WINDOW_MS } from './pending-deletes';

const conversation = (id: string, title: string): Conversation => ({
  id,
  agent: 'tidying',
  title,
  ownerId: 'u-1',
  head: 'h',
  status: 'waiting',
  pendingElicit: null,
  model: 'offline',
  createdAt: '2026-01-01T12:00:00.000Z',
  updatedAt: '2026-01-01T12:00:00.000Z',
});
const garage = conversation('c-garage', 'The garage');
const hall = conversation('c-hall', 'The hall closet');

function setup() {
  const api = { archive: jest.fn().mockResolvedValue(undefined) };
  const fetch = jest.fn().mockResolvedValue({ ok: true });
  Object.defineProperty(globalThis, 'fetch', { value: fetch, configurable: true, writable: true });
  TestBed.configureTestingModule({ providers: [{ provide: ApiService, useValue: api }] });
  TestBed.inject(SessionService).start({
    token: 'tok',
    user: { id: 'u-1', email: 'a@example.com', displayName: 'A', role: 'user' },
  });
  return { deletes: TestBed.inject(PendingDeletes), api, fetch };
}

describe('PendingDeletes', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    jest.useRealTimers();
    localStorage.clear();
  });

  it('hides at once and sends the DELETE only when the undo window ends', async () => {
    const { deletes, api } = setup();
    deletes.delete(garage);
    expect(deletes.hidden().has(garage.id)).toBe(true);
    expect(deletes.latest()).toEqual(garage);
    await jest.advanceTimersByTimeAsync(UNDO_WINDOW_MS - 1);
    expect(api.archive).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(api.archive).toHaveBeenCalledWith(garage.id);
    expect(deletes.latest()).toBeNull();
    // Sent and gone: still hidden until the list is read again without it.
    expect(deletes.hidden().has(garage.id)).toBe(true);
  });

  it('Undo takes it back, and nothing is ever sent', async () => {
    const { deletes, api } = setup();
    deletes.delete(garage);
    expect(deletes.undo(garage.id)).toBe(true);
    expect(deletes.hidden().size).toBe(0);
    expect(deletes.latest()).toBeNull();
    await jest.advanceTimersByTimeAsync(UNDO_WINDOW_MS * 3);
    expect(api.archive).not.toHaveBeenCalled();
    expect(deletes.undo(garage.id)).toBe(false);
  });

  it('keeps a timer per delete; the toast offers the latest', async () => {
    const { deletes, api } = setup();
    deletes.delete(garage);
    await jest.advanceTimersByTimeAsync(2_000);
    deletes.delete(hall);
    expect(deletes.latest()).toEqual(hall);
    await jest.advanceTimersByTimeAsync(UNDO_WINDOW_MS - 2_000);
    expect(api.archive).toHaveBeenCalledTimes(1);
    expect(api.archive).toHaveBeenCalledWith(garage.id);
    expect(deletes.latest()).toEqual(hall);
    deletes.undo(hall.id);
    await jest.advanceTimersByTimeAsync(UNDO_WINDOW_MS);
    expect(api.archive).toHaveBeenCalledTimes(1);
  });

  it('brings the conversation back and says so in plain words when the api refuses', async () => {
    const { deletes, api } = setup();
    api.archive.mockRejectedValueOnce(
      new ApiError({ code: 'not_found', message: 'no such conversation' }, 404),
    );
    deletes.delete(garage);
    await jest.advanceTimersByTimeAsync(UNDO_WINDOW_MS);
    expect(deletes.hidden().has(garage.id)).toBe(false);
    expect(deletes.error()).toBe(
      "Could not delete 'The garage'. Not found: it doesn't exist, or it isn't yours.",
    );
  });

  it('on pagehide sends what waits at once, with keepalive and the bearer token', async () => {
    const { deletes, api, fetch } = setup();
    deletes.delete(garage);
    deletes.delete(hall);
    window.dispatchEvent(new Event('pagehide'));
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(fetch).toHaveBeenCalledWith('/api/conversations/c-garage', {
      method: 'DELETE',
      keepalive: true,
      headers: { Authorization: 'Bearer tok' },
    });
    expect(deletes.latest()).toBeNull();
    expect(deletes.hidden()).toEqual(new Set([garage.id, hall.id]));
    // The window's own timers are gone: nothing is sent twice.
    await jest.advanceTimersByTimeAsync(UNDO_WINDOW_MS);
    expect(api.archive).not.toHaveBeenCalled();
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('sends what waits when the app is torn down', () => {
    const { deletes, fetch } = setup();
    deletes.delete(garage);
    TestBed.resetTestingModule();
    expect(fetch).toHaveBeenCalledWith(
      '/api/conversations/c-garage',
      expect.objectContaining({ keepalive: true }),
    );
  });
});
