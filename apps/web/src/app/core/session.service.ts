import { HttpBackend, HttpClient } from '@angular/common/http';
import {
  computed,
  DestroyRef,
  DOCUMENT,
  effect,
  inject,
  Injectable,
  Injector,
  signal,
  untracked,
} from '@angular/core';
import { Router } from '@angular/router';
import {
  type AuthResponse,
  createHttpClient,
  HttpApiError,
  REFRESH_COOKIE_PATH,
  type User,
  UserSchema,
} from '@sweatpants/domain';

import { defer, finalize, type Observable } from 'rxjs';

import { angularTransport } from './angular-transport';

const STORAGE_KEY = 'sweatpants.session';
/** Held while one tab refreshes, so two tabs never present the same refresh token at once. */
const REFRESH_LOCK = 'sweatpants.refresh';
/** Refresh this long before the access token expires at most: long enough for a slow network. */
const REFRESH_AHEAD_MS = 60_000;
/** …and at least this share of its lifetime before, for short-lived tokens (tests, tight deploys). */
const REFRESH_AHEAD_SHARE = 0.2;
/** When a refresh could not reach the api, try again after this (the 401 path also catches it). */
const RETRY_MS = 30_000;

/** Why a person was sent to sign in, as the sign-in page's `signedOut` query parameter says it. */
export const SESSION_ENDED = 'expired';

interface StoredSession {
  token: string;
  user: User;
}

/**
 * Who is signed in: the short-lived access token and the user, kept in localStorage across reloads.
 * The session itself lives on in the api's httpOnly refresh cookie, which no script here can read:
 * this service trades it for a fresh access token a little before the current one expires, and
 * whenever the api refuses one (the interceptor and the socket ask `refreshAfter`). When the api
 * says the session is over, `expire` sends the person to sign in, saying why, and back afterwards.
 */
@Injectable({ providedIn: 'root' })
export class SessionService {
  private readonly injector = inject(Injector);
  private readonly session = signal<StoredSession | null>(readStored());
  /** Moves on at each sign-in and sign-out; a refresh of the access token leaves it be. */
  private readonly signIns = signal(0);
  /** The refresh in flight: every caller that finds the token refused waits for this one. */
  private refreshing: Promise<string | null> | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Answers on their way that change the session's tokens (see `changingSession`). */
  private sessionChanges = 0;
  private readonly onChangesSettled: (() => void)[] = [];

  /**
   * The current access token. Read in an effect or a computed, it tracks who is signed in (a
   * sign-in, a sign-out) and not each refresh of their token: pages that start over for a new
   * session (the conversation list, the archived section) must not start over every hour.
   */
  readonly token = (): string | null => {
    this.signIns();
    return untracked(() => this.session()?.token ?? null);
  };
  readonly user = computed(() => this.session()?.user ?? null);
  readonly signedIn = computed(() => this.session() !== null);
  readonly isAdmin = computed(() => this.session()?.user.role === 'admin');

  constructor() {
    // Each new access token schedules its own refresh, a little before it expires.
    effect(() => this.schedule(this.session()?.token ?? null));
    // A tab that slept past the token's expiry (timers are throttled there) refreshes on waking.
    const document = inject(DOCUMENT);
    const onVisible = (): void => {
      if (document.visibilityState === 'visible') this.schedule(untracked(this.token));
    };
    document.addEventListener('visibilitychange', onVisible);
    inject(DestroyRef).onDestroy(() => {
      clearTimeout(this.timer);
      document.removeEventListener('visibilitychange', onVisible);
    });
  }

  start(auth: AuthResponse): void {
    this.save({ token: auth.token, user: auth.user });
    this.signIns.update((n) => n + 1);
  }

  /**
   * Takes up a session the api began outside this page: a sign-in with the identity provider,
   * whose return set the refresh cookie. The cookie is traded for the access token and the user,
   * as a refresh does; rejects when there is no such session.
   */
  async adopt(): Promise<void> {
    this.start(await this.api().refresh());
  }

  /**
   * A fresh access token now, for what the current one says wrongly (the email was proven since it
   * was signed): resolves with whether the session carries on.
   */
  async renew(): Promise<boolean> {
    const token = this.token();
    if (token === null) return false;
    return (await this.refreshAfter(token).catch(() => token)) !== null;
  }

  /** `GET /api/auth/me` answered: the role may have changed since sign-in. */
  refreshUser(user: User): void {
    const current = this.session();
    if (current) this.save({ ...current, user });
  }

  /**
   * Signs out here: forgets the session and asks the api to end it, so its refresh cookie is
   * refused from now on (after sign-out everywhere or a deleted account it is already, and this
   * changes nothing).
   */
  end(): void {
    clearTimeout(this.timer);
    this.refreshing = null;
    this.session.set(null);
    this.signIns.update((n) => n + 1);
    try {
      localStorage.removeItem(STORAGE_KEY);
    } catch {
      // storage may be unavailable (private mode); the in-memory session is gone either way
    }
    endOnServer();
  }

  /**
   * A fresh access token in place of `refused` (the one a request or the socket was turned away
   * with), or null when the session is over. Callers that find the same token refused share one
   * refresh; one that comes after it finished gets its token at once. Rejects when the api could
   * not be reached: the session may well be alive, so nobody is signed out for that.
   */
  refreshAfter(refused: string): Promise<string | null> {
    const current = this.token();
    if (current === null) return Promise.resolve(null);
    if (current !== refused) return Promise.resolve(current);
    this.refreshing ??= this.refreshNow(refused).finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  /**
   * The session `token` belonged to is over: the person is sent to sign in with a word about why,
   * and brought back to where they were afterwards. Nothing happens when the session has changed
   * since (signed out here meanwhile, or already refreshed by another caller).
   */
  expire(token: string): void {
    if (this.token() !== token) return;
    const router = this.injector.get(Router);
    const here = router.url;
    this.end();
    const returnUrl = here.startsWith('/sign-in') || here.startsWith('/sign-up') ? undefined : here;
    void router.navigate(['/sign-in'], {
      queryParams: { signedOut: SESSION_ENDED, ...(returnUrl && returnUrl !== '/' ? { returnUrl } : {}) },
    });
  }

  /**
   * `answer` is the api's answer to something that changes this session's tokens (a new password,
   * sign out everywhere, deleting the account): the api refuses the old token from the moment it
   * acts, before the answer arrives. A refresh asked for meanwhile waits until the answer is in and
   * the page has acted on it (a new token, or none), rather than present a refresh token the same
   * change ended and sign the person out under the page that is signing them back in.
   */
  changingSession<T>(answer: Observable<T>): Observable<T> {
    return defer(() => {
      this.sessionChanges += 1;
      return answer.pipe(
        finalize(() => {
          this.sessionChanges -= 1;
          if (this.sessionChanges > 0) return;
          // After the caller's own continuation (a promise's then), which applies the answer.
          setTimeout(() => this.onChangesSettled.splice(0).forEach((settled) => settled()));
        }),
      );
    });
  }

  private async refreshNow(refused: string): Promise<string | null> {
    if (this.sessionChanges > 0) {
      await new Promise<void>((settled) => this.onChangesSettled.push(settled));
      if (this.token() !== refused) return this.token();
    }
    const attempt = async (): Promise<string | null> => {
      // Another tab may have refreshed while this one waited for the lock: its token is as good.
      const stored = readStored();
      const mine = this.session();
      if (!mine || this.token() !== refused) return this.token();
      if (stored && stored.token !== refused && stored.user.id === mine.user.id) {
        this.save(stored);
        return stored.token;
      }
      try {
        const auth = await this.api().refresh();
        // Signed out (or in as someone else) while the refresh was on its way: not ours to keep.
        if (this.token() !== refused) return this.token();
        // The same session carried on: a renewal, not a sign-in.
        this.save({ token: auth.token, user: auth.user });
        return auth.token;
      } catch (error: unknown) {
        if (error instanceof HttpApiError && error.status === 401) return null;
        throw error;
      }
    };
    const locks = globalThis.navigator?.locks;
    return locks ? locks.request(REFRESH_LOCK, attempt) : attempt();
  }

  /** Refreshes a little before `token` expires, or at once when it already has. */
  private schedule(token: string | null): void {
    clearTimeout(this.timer);
    const timing = token === null ? null : tokenTiming(token);
    if (token === null || timing === null) return;
    const ahead = Math.min(REFRESH_AHEAD_MS, (timing.expiresAt - timing.issuedAt) * REFRESH_AHEAD_SHARE);
    const delay = Math.max(0, timing.expiresAt - ahead - Date.now());
    this.timer = setTimeout(() => {
      this.refreshAfter(token).then(
        (fresh) => {
          if (fresh === null) this.expire(token);
        },
        () => {
          // The api was out of reach: try again later; a refused request will also try meanwhile.
          if (this.token() === token) this.timer = setTimeout(() => this.schedule(token), RETRY_MS);
        },
      );
    }, delay);
  }

  /** The auth routes without the interceptor, which calls this service (it would call itself). */
  private api() {
    return createHttpClient({ transport: angularTransport(new HttpClient(this.injector.get(HttpBackend))) });
  }

  private save(session: StoredSession): void {
    this.session.set(session);
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
    } catch {
      // keep the in-memory session; it lasts until reload
    }
  }
}

/**
 * Asks the api to end this browser's session (its refresh cookie), without waiting: with
 * keepalive it goes out even when the page is being left, as a sign-out often is. Where there is
 * no fetch (unit tests), there is no cookie either.
 */
function endOnServer(): void {
  if (typeof fetch !== 'function') return;
  fetch(`${REFRESH_COOKIE_PATH}/sign-out`, {
    method: 'POST',
    keepalive: true,
    credentials: 'same-origin',
  }).catch(() => undefined);
}

/**
 * When an access token was issued and expires, in ms, from its JWT claims; null for a token that
 * is not a JWT. Read only to schedule a refresh: the api is what decides whether it is valid.
 */
export function tokenTiming(token: string): { issuedAt: number; expiresAt: number } | null {
  try {
    const payload = token.split('.')[1];
    if (!payload) return null;
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const claims: unknown = JSON.parse(json);
    if (typeof claims !== 'object' || claims === null) return null;
    const { iat, exp } = claims as Record<string, unknown>;
    return typeof iat === 'number' && typeof exp === 'number'
      ? { issuedAt: iat * 1000, expiresAt: exp * 1000 }
      : null;
  } catch {
    return null;
  }
}

function readStored(): StoredSession | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const token = (value as Record<string, unknown>)['token'];
    // A session stored before the api said whether the email is proven reads as unproven until
    // the app's first `me` says otherwise, rather than as no session at all.
    const user = UserSchema.safeParse({ emailVerified: false, ...(value as Record<string, object>)['user'] });
    return typeof token === 'string' && user.success ? { token, user: user.data } : null;
  } catch {
    return null;
  }
}
