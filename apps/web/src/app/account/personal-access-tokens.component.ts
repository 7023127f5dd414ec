import { DatePipe } from '@angular/common';
import {
  afterNextRender,
  ChangeDetectionStrategy,
  Component,
  ElementRef,
  inject,
  Injector,
  signal,
  viewChild,
} from '@angular/core';
import type { AccessToken, CreatedAccessToken } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { ConfirmRemovalComponent } from './confirm-removal.component';

/** How long "Copied" shows on the button. */
const COPIED_MS = 2_000;

/**
 * The account's personal access tokens (PROTOCOL.md), for scripts and MCP clients: make one with
 * a name and copy it (it is shown this once: only its hash is kept), see each one's name, when it
 * was made and last used, and revoke one, after saying so, which stops it at once everywhere.
 */
@Component({
  selector: 'app-personal-access-tokens',
  imports: [ConfirmRemovalComponent, DatePipe],
  template: `
    <section class="card stack" aria-labelledby="tokens-heading">
      <h2 id="tokens-heading">Personal access tokens</h2>
      <p class="small muted">
        For scripts and MCP clients (Claude Desktop, an editor): a token acts as you, except that it cannot
        make more tokens or delete your account. Revoke one you no longer use.
      </p>

      <form class="inline-form" novalidate (submit)="$event.preventDefault(); create()">
        <label class="field">
          <span>Token name</span>
          <input
            #nameInput
            class="input"
            name="tokenName"
            autocomplete="off"
            maxlength="100"
            placeholder="Where it is used: laptop, CI…"
            [value]="name()"
            (input)="name.set(nameInput.value)"
          />
        </label>
        <button type="submit" class="button button--primary" [disabled]="busy() || !name().trim()">
          Create token
        </button>
      </form>
      @if (createError(); as e) {
        <p class="error" role="alert">{{ e }}</p>
      }

      @if (created(); as token) {
        <div class="created stack" role="group" aria-labelledby="created-heading">
          <h3 id="created-heading">Your new token “{{ token.name }}”</h3>
          <p class="small" role="status">Copy it now: it won't be shown again.</p>
          <div class="created__value">
            <label class="visually-hidden" for="created-token">The new token</label>
            <input
              #createdInput
              id="created-token"
              class="input mono"
              readonly
              [value]="token.token"
              (focus)="createdInput.select()"
            />
            <button type="button" class="button" (click)="copy(token.token)">
              {{ copied() ? 'Copied' : 'Copy' }}<span class="visually-hidden"> token</span>
            </button>
          </div>
          <span class="visually-hidden" aria-live="polite">{{
            copied() ? 'Copied to the clipboard' : ''
          }}</span>
          <button type="button" class="button button--quiet button--small done" (click)="dismiss()">
            Done, I've copied it
          </button>
        </div>
      }

      @if (listError(); as e) {
        <p class="error" role="alert">{{ e }}</p>
      }
      @if (revoked(); as name) {
        <p class="small" role="status">“{{ name }}” is revoked: it no longer works.</p>
      }
      @if (tokens(); as list) {
        @if (list.length === 0) {
          <p class="small muted">You have no tokens.</p>
        } @else {
          <ul class="item-list" aria-label="Your tokens">
            @for (token of list; track token.id) {
              <li>
                <div class="item-list__about">
                  <strong class="item-list__name">{{ token.name }}</strong>
                  <span class="small muted">
                    Created
                    <time [attr.datetime]="token.createdAt">{{ token.createdAt | date: 'mediumDate' }}</time>
                    ·
                    @if (token.lastUsedAt; as used) {
                      last used <time [attr.datetime]="used">{{ used | date: 'MMM d, y, h:mm a' }}</time>
                    } @else {
                      never used
                    }
                  </span>
                </div>
                @if (confirming() === token.id) {
                  <app-confirm-removal
                    [id]="token.id"
                    [question]="'Revoke “' + token.name + '”? Anything using it stops working at once.'"
                    action="Revoke"
                    [busy]="busy()"
                    (confirmed)="revoke(token)"
                    (kept)="keep(token.id)"
                  />
                } @else {
                  <button
                    type="button"
                    class="button button--small"
                    [id]="'revoke-' + token.id"
                    [disabled]="busy()"
                    (click)="ask(token.id)"
                  >
                    Revoke<span class="visually-hidden"> {{ token.name }}</span>
                  </button>
                }
              </li>
            }
          </ul>
        }
      }
    </section>
  `,
  styles: `
    .created {
      padding: var(--space-4);
      border: 1px solid var(--color-warn-border);
      border-radius: var(--radius);
      background: var(--color-warn-bg);
    }
    .created h3,
    .created p {
      margin: 0;
    }
    .created__value {
      display: flex;
      gap: var(--space-2);
    }
    .created__value .input {
      flex: 1;
      min-width: 0;
    }
    .done {
      align-self: flex-start;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PersonalAccessTokensComponent {
  private readonly api = inject(ApiService);
  private readonly injector = inject(Injector);
  private readonly nameInput = viewChild<ElementRef<HTMLInputElement>>('nameInput');
  private readonly createdInput = viewChild<ElementRef<HTMLInputElement>>('createdInput');

  protected readonly name = signal('');
  protected readonly busy = signal(false);
  /** null until the first list arrives */
  protected readonly tokens = signal<AccessToken[] | null>(null);
  /** the token just made, shown until the person says they have it (or leaves the page) */
  protected readonly created = signal<CreatedAccessToken | null>(null);
  protected readonly copied = signal(false);
  /** the id of the token whose Revoke is being confirmed */
  protected readonly confirming = signal<string | null>(null);
  /** the name of the token just revoked, said once */
  protected readonly revoked = signal<string | null>(null);
  protected readonly createError = signal<string | null>(null);
  protected readonly listError = signal<string | null>(null);

  constructor() {
    void this.load();
  }

  protected async create(): Promise<void> {
    const name = this.name().trim();
    if (!name) return;
    this.busy.set(true);
    this.createError.set(null);
    this.revoked.set(null);
    try {
      const created = await this.api.createAccessToken({ name });
      this.created.set(created);
      this.copied.set(false);
      this.name.set('');
      // The token is what the person came for: put them on it, selected, ready to copy, as soon as
      // it shows (not once the list below has been read again).
      this.afterRender(() => this.createdInput()?.nativeElement.focus());
      await this.load();
    } catch (error: unknown) {
      this.createError.set(describeError(error));
    } finally {
      this.busy.set(false);
    }
  }

  /** Copies the new token; "Copied" for a moment (said to screen readers too). */
  protected async copy(token: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(token);
      this.copied.set(true);
      setTimeout(() => this.copied.set(false), COPIED_MS);
    } catch {
      this.createError.set(
        'Could not copy: this browser does not allow it here. Select the token and copy it.',
      );
    }
  }

  /** The token leaves the page for good: only its name stays, in the list. */
  protected dismiss(): void {
    this.created.set(null);
    this.afterRender(() => this.nameInput()?.nativeElement.focus());
  }

  /** The question "Revoke …?" takes focus on its harmless answer, Keep it. */
  protected ask(id: string): void {
    this.confirming.set(id);
    this.revoked.set(null);
    this.afterRender(() => document.getElementById(`keep-${id}`)?.focus());
  }

  protected keep(id: string): void {
    this.confirming.set(null);
    this.afterRender(() => document.getElementById(`revoke-${id}`)?.focus());
  }

  protected async revoke(token: AccessToken): Promise<void> {
    this.busy.set(true);
    this.listError.set(null);
    try {
      await this.api.revokeAccessToken(token.id);
      this.confirming.set(null);
      if (this.created()?.id === token.id) this.created.set(null);
      this.revoked.set(token.name);
      await this.load();
      this.afterRender(() => this.nameInput()?.nativeElement.focus());
    } catch (error: unknown) {
      this.listError.set(describeError(error));
    } finally {
      this.busy.set(false);
    }
  }

  private async load(): Promise<void> {
    try {
      this.tokens.set((await this.api.accessTokens()).items);
      this.listError.set(null);
    } catch (error: unknown) {
      this.listError.set(describeError(error));
    }
  }

  private afterRender(work: () => void): void {
    afterNextRender(work, { injector: this.injector });
  }
}
