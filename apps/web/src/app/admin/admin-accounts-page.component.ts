import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { RouterLink } from '@angular/router';
import type { AccountEvent, AccountEventKind } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';

const PAGE = 50;

/** What happened to an account, in words. */
const KIND_WORDS: Record<AccountEventKind, string> = {
  'signed-in': 'Signed in',
  'passkey-added': 'Added a passkey',
  'passkey-removed': 'Removed a passkey',
  'session-revoked': 'Signed out',
};

/** The admins' audit of accounts: sign-ins and their devices, passkeys added and removed, devices signed out. */
@Component({
  selector: 'app-admin-accounts-page',
  imports: [DatePipe, RouterLink],
  template: `
    <div class="row head">
      <h1>Audit: accounts</h1>
      <a routerLink="/admin" class="button button--small">Reflog</a>
    </div>
    <form class="card filters" aria-label="Filters" (submit)="$event.preventDefault(); load(false)">
      <label class="field">
        <span>User id</span>
        <input #u class="input" name="userId" (input)="userId.set(u.value.trim())" />
      </label>
      <div class="row submit">
        <button type="submit" class="button button--primary">Search</button>
      </div>
    </form>
    @if (error(); as e) {
      <p class="error" role="alert">{{ e }}</p>
    }
    @if (events(); as list) {
      @if (list.length === 0) {
        <p class="muted">Nothing has happened to accounts yet.</p>
      } @else {
        <ul class="events" aria-label="Account activity">
          @for (event of list; track event.id) {
            <li class="event">
              <span>
                <strong>{{ event.email }}</strong> · {{ words(event) }}
                @if (event.detail) {
                  <span class="detail">{{ detail(event) }}</span>
                }
              </span>
              <time class="small muted" [attr.datetime]="event.at">{{
                event.at | date: 'MMM d, y, h:mm:ss a'
              }}</time>
            </li>
          }
        </ul>
      }
    } @else if (!error()) {
      <p class="muted" role="status">Loading…</p>
    }
    @if (next()) {
      <div class="row more">
        <button type="button" class="button" (click)="load(true)">Earlier</button>
      </div>
    }
  `,
  styles: `
    .head {
      justify-content: space-between;
    }
    .filters {
      display: flex;
      flex-wrap: wrap;
      gap: var(--space-3);
      align-items: flex-end;
      margin-bottom: var(--space-4);
    }
    .events {
      margin: 0;
      padding: 0;
      list-style: none;
    }
    .event {
      display: flex;
      flex-direction: column;
      gap: var(--space-1);
      padding: var(--space-2) 0;
      border-top: 1px solid var(--color-border);
      overflow-wrap: anywhere;
    }
    .more {
      margin-top: var(--space-3);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class AdminAccountsPageComponent {
  private readonly api = inject(ApiService);

  protected readonly userId = signal('');
  protected readonly events = signal<AccountEvent[] | null>(null);
  protected readonly next = signal<string | null>(null);
  protected readonly error = signal<string | null>(null);

  constructor() {
    void this.load(false);
  }

  protected words(event: AccountEvent): string {
    return KIND_WORDS[event.kind];
  }

  /** A passkey's name is quoted; a sign-in's way and device, and a device signed out, read as they are. */
  protected detail(event: AccountEvent): string {
    return event.kind === 'passkey-added' || event.kind === 'passkey-removed'
      ? `“${event.detail}”`
      : event.detail;
  }

  /** The first page for the filter, or (`more`) the page before the last one shown. */
  protected async load(more: boolean): Promise<void> {
    this.error.set(null);
    const userId = this.userId();
    try {
      const page = await this.api.accountEvents({
        limit: PAGE,
        ...(userId ? { userId } : {}),
        ...(more && this.next() ? { before: this.next() ?? undefined } : {}),
      });
      this.events.set(more ? [...(this.events() ?? []), ...page.items] : page.items);
      this.next.set(page.next);
    } catch (error: unknown) {
      this.error.set(describeError(error));
    }
  }
}
