import { DatePipe } from '@angular/common';
import { afterNextRender, ChangeDetectionStrategy, Component, inject, Injector, signal } from '@angular/core';
import type { Passkey } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { describePasskeyError, passkeyPrompt } from '../core/passkey-prompt';
import { ConfirmRemovalComponent } from './confirm-removal.component';

/**
 * The account's passkeys: add one for this device under a name ("this laptop"), see each with
 * when it was added and last used, and remove one after saying so. The api refuses to remove the
 * last way to sign in, and that refusal is shown as it says it.
 */
@Component({
  selector: 'app-passkeys',
  imports: [ConfirmRemovalComponent, DatePipe],
  template: `
    <section class="card stack" aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading">Passkeys</h2>
      <p class="small muted">
        Sign in with your fingerprint, face or screen lock instead of your password. A passkey stays on the
        device (or in your password manager) that made it.
      </p>

      @if (supported) {
        <form class="inline-form" novalidate (submit)="$event.preventDefault(); add()">
          <label class="field">
            <span>Passkey name</span>
            <input
              #nameInput
              id="passkey-name"
              class="input"
              name="passkeyName"
              autocomplete="off"
              maxlength="100"
              placeholder="Where it lives: this laptop, my phone…"
              [value]="name()"
              (input)="name.set(nameInput.value)"
            />
          </label>
          <button type="submit" class="button button--primary" [disabled]="busy() || !name().trim()">
            Add a passkey
          </button>
        </form>
      } @else {
        <p class="small" role="status">This browser cannot make passkeys.</p>
      }
      @if (addError(); as e) {
        <p class="error" role="alert">{{ e }}</p>
      }
      @if (notice(); as n) {
        <p class="small" role="status">{{ n }}</p>
      }

      @if (listError(); as e) {
        <p class="error" role="alert">{{ e }}</p>
      }
      @if (passkeys(); as list) {
        @if (list.length === 0) {
          <p class="small muted">You have no passkeys.</p>
        } @else {
          <ul class="item-list" aria-label="Your passkeys">
            @for (passkey of list; track passkey.id) {
              <li>
                <div class="item-list__about">
                  <strong class="item-list__name">{{ passkey.name }}</strong>
                  <span class="small muted">
                    Added
                    <time [attr.datetime]="passkey.createdAt">{{
                      passkey.createdAt | date: 'mediumDate'
                    }}</time>
                    ·
                    @if (passkey.lastUsedAt; as used) {
                      last used <time [attr.datetime]="used">{{ used | date: 'MMM d, y, h:mm a' }}</time>
                    } @else {
                      never used
                    }
                  </span>
                </div>
                @if (confirming() === passkey.id) {
                  <app-confirm-removal
                    [id]="passkey.id"
                    [question]="'Remove “' + passkey.name + '”? It will no longer sign you in.'"
                    action="Remove"
                    [busy]="busy()"
                    (confirmed)="remove(passkey)"
                    (kept)="keep(passkey.id)"
                  />
                } @else {
                  <button
                    type="button"
                    class="button button--small"
                    [id]="'remove-passkey-' + passkey.id"
                    [disabled]="busy()"
                    (click)="ask(passkey.id)"
                  >
                    Remove<span class="visually-hidden"> {{ passkey.name }}</span>
                  </button>
                }
              </li>
            }
          </ul>
        }
      }
    </section>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PasskeysComponent {
  private readonly api = inject(ApiService);
  private readonly injector = inject(Injector);

  protected readonly supported = passkeyPrompt.supported();
  protected readonly name = signal('');
  protected readonly busy = signal(false);
  /** null until the first list arrives */
  protected readonly passkeys = signal<Passkey[] | null>(null);
  /** the id of the passkey whose Remove is being confirmed */
  protected readonly confirming = signal<string | null>(null);
  /** what just happened, said once */
  protected readonly notice = signal<string | null>(null);
  protected readonly addError = signal<string | null>(null);
  protected readonly listError = signal<string | null>(null);

  constructor() {
    void this.load();
  }

  /** Asks the api for options, the browser (and the person) for a passkey, and the api to keep it. */
  protected async add(): Promise<void> {
    const name = this.name().trim();
    if (!name) return;
    this.busy.set(true);
    this.addError.set(null);
    this.notice.set(null);
    try {
      const options = await this.api.passkeyRegistrationOptions();
      const credential = await passkeyPrompt.create(options);
      const added = await this.api.addPasskey({ name, credential });
      this.name.set('');
      this.notice.set(`“${added.name}” is added: you can sign in with it next time.`);
      await this.load();
    } catch (error: unknown) {
      this.addError.set(describePasskeyError(error));
    } finally {
      this.busy.set(false);
    }
  }

  /** The question "Remove …?" takes focus on its harmless answer, Keep it. */
  protected ask(id: string): void {
    this.confirming.set(id);
    this.notice.set(null);
    this.listError.set(null);
    this.afterRender(() => document.getElementById(`keep-${id}`)?.focus());
  }

  protected keep(id: string): void {
    this.confirming.set(null);
    this.afterRender(() => document.getElementById(`remove-passkey-${id}`)?.focus());
  }

  protected async remove(passkey: Passkey): Promise<void> {
    this.busy.set(true);
    this.listError.set(null);
    try {
      await this.api.removePasskey(passkey.id);
      this.confirming.set(null);
      this.notice.set(`“${passkey.name}” is removed: it no longer signs you in.`);
      await this.load();
      this.afterRender(() => document.getElementById('passkey-name')?.focus());
    } catch (error: unknown) {
      this.confirming.set(null);
      this.listError.set(describeError(error));
      this.afterRender(() => document.getElementById(`remove-passkey-${passkey.id}`)?.focus());
    } finally {
      this.busy.set(false);
    }
  }

  private async load(): Promise<void> {
    try {
      this.passkeys.set((await this.api.passkeys()).items);
      this.listError.set(null);
    } catch (error: unknown) {
      this.listError.set(describeError(error));
    }
  }

  private afterRender(work: () => void): void {
    afterNextRender(work, { injector: this.injector });
  }
}
