import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { RouterLink } from '@angular/router';
import type { PersonSpend, SpendLimit } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { budgetWords, parseDollars, personBudgetWords, spentWords, usedUpWords } from './spend-words';

/** The budget form's fields as typed. */
interface BudgetDraft {
  daily: string;
  monthly: string;
}

const typed = (usd: number | null): string => (usd === null ? '' : String(usd));

/**
 * Spend for admins: what each person's model calls cost today and this month, the budget they are
 * held to, and a budget of their own to set (or the default again).
 */
@Component({
  selector: 'app-admin-spend-page',
  imports: [RouterLink],
  template: `
    <div class="row head">
      <h1>Spend</h1>
      <a routerLink="/admin" class="button button--small">Reflog</a>
    </div>
    <p class="muted">
      What each person's model calls cost today and this month (UTC), at the models' published prices.
      @if (defaults(); as d) {
        Everyone's budget unless set for them: {{ budget(d) }}.
      }
    </p>
    @if (error(); as e) {
      <p class="error" role="alert">{{ e }}</p>
    }
    @if (people(); as list) {
      @if (list.length === 0) {
        <p class="muted">Nobody has an account yet.</p>
      } @else {
        <ul class="people" aria-label="Spend by person">
          @for (p of list; track p.userId) {
            <li class="person card" [attr.aria-label]="p.displayName + ', ' + p.email">
              <div class="who">
                <strong>{{ p.displayName }}</strong>
                <span class="small muted email">{{ p.email }}</span>
              </div>
              <span class="spent">{{ spent(p) }}</span>
              <span class="small">
                {{ personBudget(p) }}
                @if (usedUp(p); as u) {
                  · <strong class="used-up">{{ u }}</strong>
                }
              </span>
              @if (editing() === p.userId) {
                <form
                  class="budget"
                  [attr.aria-label]="'Budget for ' + p.displayName"
                  (submit)="$event.preventDefault(); save(p)"
                >
                  <label class="field">
                    <span>Daily budget ($)</span>
                    <input
                      #d
                      class="input"
                      name="daily"
                      inputmode="decimal"
                      [value]="draft().daily"
                      (input)="draft.set({ daily: d.value, monthly: draft().monthly })"
                    />
                  </label>
                  <label class="field">
                    <span>Monthly budget ($)</span>
                    <input
                      #m
                      class="input"
                      name="monthly"
                      inputmode="decimal"
                      [value]="draft().monthly"
                      (input)="draft.set({ daily: draft().daily, monthly: m.value })"
                    />
                  </label>
                  <p class="small muted hint">Leave a budget empty for no limit; 0 allows no model call.</p>
                  @if (formError(); as e) {
                    <p class="error small" role="alert">{{ e }}</p>
                  }
                  <div class="row">
                    <button type="submit" class="button button--small button--primary" [disabled]="saving()">
                      Save budget
                    </button>
                    @if (p.limitSource === 'person') {
                      <button
                        type="button"
                        class="button button--small"
                        [disabled]="saving()"
                        (click)="useDefault(p)"
                      >
                        Use the default
                      </button>
                    }
                    <button type="button" class="button button--small" (click)="editing.set(null)">
                      Cancel
                    </button>
                  </div>
                </form>
              } @else {
                <div class="row">
                  <button type="button" class="button button--small" (click)="edit(p)">Set budget</button>
                </div>
              }
            </li>
          }
        </ul>
      }
    } @else if (!error()) {
      <p class="muted" role="status">Loading…</p>
    }
  `,
  styles: `
    .head {
      justify-content: space-between;
    }
    .people {
      display: flex;
      flex-direction: column;
      gap: var(--space-3);
      margin: 0;
      padding: 0;
      list-style: none;
    }
    .person {
      display: flex;
      flex-direction: column;
      gap: var(--space-2);
      overflow-wrap: anywhere;
    }
    .who {
      display: flex;
      flex-wrap: wrap;
      gap: var(--space-2);
      align-items: baseline;
    }
    .spent {
      font-variant-numeric: tabular-nums;
    }
    .used-up {
      color: var(--color-danger-text);
    }
    .budget {
      display: flex;
      flex-wrap: wrap;
      gap: var(--space-3);
      align-items: flex-end;
    }
    .hint {
      flex-basis: 100%;
      margin: 0;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class AdminSpendPageComponent {
  private readonly api = inject(ApiService);

  protected readonly people = signal<PersonSpend[] | null>(null);
  protected readonly defaults = signal<SpendLimit | null>(null);
  protected readonly error = signal<string | null>(null);
  /** whose budget form is open */
  protected readonly editing = signal<string | null>(null);
  protected readonly draft = signal<BudgetDraft>({ daily: '', monthly: '' });
  protected readonly formError = signal<string | null>(null);
  protected readonly saving = signal(false);

  constructor() {
    void this.load();
  }

  protected spent(person: PersonSpend): string {
    return spentWords(person);
  }

  protected personBudget(person: PersonSpend): string {
    return personBudgetWords(person);
  }

  protected budget(limit: SpendLimit): string {
    return budgetWords(limit);
  }

  protected usedUp(person: PersonSpend): string | null {
    return usedUpWords(person);
  }

  protected edit(person: PersonSpend): void {
    this.draft.set({ daily: typed(person.limit.dailyUsd), monthly: typed(person.limit.monthlyUsd) });
    this.formError.set(null);
    this.editing.set(person.userId);
  }

  protected async save(person: PersonSpend): Promise<void> {
    const dailyUsd = parseDollars(this.draft().daily);
    const monthlyUsd = parseDollars(this.draft().monthly);
    if (dailyUsd === undefined || monthlyUsd === undefined) {
      this.formError.set('A budget is an amount of dollars, such as 5 or 0.50, or empty for no limit.');
      return;
    }
    await this.change(() => this.api.setSpendLimit(person.userId, { dailyUsd, monthlyUsd }));
  }

  protected async useDefault(person: PersonSpend): Promise<void> {
    await this.change(() => this.api.clearSpendLimit(person.userId));
  }

  /** Sends a change of budget, then shows the person as the api now holds them. */
  private async change(send: () => Promise<PersonSpend>): Promise<void> {
    this.saving.set(true);
    this.formError.set(null);
    try {
      const changed = await send();
      this.people.update((list) => (list ?? []).map((p) => (p.userId === changed.userId ? changed : p)));
      this.editing.set(null);
    } catch (error: unknown) {
      this.formError.set(describeError(error));
    } finally {
      this.saving.set(false);
    }
  }

  private async load(): Promise<void> {
    try {
      const report = await this.api.spendReport();
      this.defaults.set(report.defaults);
      this.people.set(report.items);
    } catch (error: unknown) {
      this.error.set(describeError(error));
    }
  }
}
