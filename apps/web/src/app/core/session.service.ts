import { computed, Injectable, signal } from '@angular/core';
import { type AuthResponse, type User, UserSchema } from '@sweatpants/domain';

const STORAGE_KEY = 'sweatpants.session';

interface StoredSession {
  token: string;
  user: User;
}

/** Who is signed in: the bearer token and the user, kept in localStorage across reloads. */
@Injectable({ providedIn: 'root' })
export class SessionService {
  private readonly session = signal<StoredSession | null>(readStored());

  readonly token = computed(() => this.session()?.token ?? null);
  readonly user = computed(() => this.session()?.user ?? null);
  readonly signedIn = computed(() => this.session() !== null);
  readonly isAdmin = computed(() => this.session()?.user.role === 'admin');

  start(auth: AuthResponse): void {
    this.save({ token: auth.token, user: auth.user });
  }

  /** `GET /api/auth/me` answered: the role may have changed since sign-in. */
  refreshUser(user: User): void {
    const current = this.session();
    if (current) this.save({ ...current, user });
  }

  end(): void {
    this.session.set(null);
    try {
      localStorage.removeItem(STORAGE_KEY);
    } catch {
      // storage may be unavailable (private mode); the in-memory session is gone either way
    }
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

function readStored(): StoredSession | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const token = (value as Record<string, unknown>)['token'];
    const user = UserSchema.safeParse((value as Record<string, unknown>)['user']);
    return typeof token === 'string' && user.success ? { token, user: user.data } : null;
  } catch {
    return null;
  }
}
