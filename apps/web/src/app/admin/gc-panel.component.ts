import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, DestroyRef, inject, signal } from '@angular/core';
import type { GcRun } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { SessionService } from '../core/session.service';
import { gcPolicyWords, gcRunCause, gcRunWhen, gcRunWords } from './gc-run-words';

/** While a run is under way, its report is asked for this often. */
const POLL_MS = 1_000;

/**
 * Retention for admins: the latest garbage collection runs in words, and a run now (or a dry run,
 * which says what would go and removes nothing).
 */
@Component({
  selector: 'app-gc-panel',
  imports: [DatePipe],
  template: `
    <section class="card stack" aria-labelledby="gc-heading">
      <div class="row head">
        <h2 id="gc-heading">Old history</h2>
        <div class="row">
          <button type="button" class="button button--small" [disabled]="busy()" (click)="run(true)">
            Dry run
          </button>
          <button
            type="button"
            class="button button--small button--primary"
            [disabled]="busy()"
            (click)="run(false)"
          >
            Clean up now
          </button>
        </div>
      </div>
      <p class="small muted">
        Discarded branches and old history entries are removed on a schedule, by the retention policy.
      </p>
      @if (error(); as e) {
        <p class="error small" role="alert">{{ e }}</p>
      }
      @if (runs(); as list) {
        @if (list.length === 0) {
          <p class="small muted">No clean-up has run yet.</p>
        } @else {
          <ul class="runs" aria-label="Latest clean-ups">
            @for (r of list; track r.id) {
              <li>
                <span>{{ words(r) }}</span>
                <span class="small muted">
                  <time [attr.datetime]="r.startedAt" [attr.title]="r.startedAt | date: 'medium'">{{
                    when(r)
                  }}</time>
                  · {{ cause(r) }} · {{ policy(r) }}
                </span>
              </li>
            }
          </ul>
        }
      } @else if (!error()) {
        <p class="small muted" role="status">Loading…</p>
      }
    </section>
  `,
  styles: `
    .head {
      justify-content: space-between;
      align-items: center;
    }
    .runs {
      display: flex;
      flex-direction: column;
      gap: var(--space-2);
      margin: 0;
      padding: 0;
      list-style: none;
    }
    .runs li {
      display: flex;
      flex-direction: column;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class GcPanelComponent {
  private readonly api = inject(ApiService);
  private readonly session = inject(SessionService);
  protected readonly runs = signal<GcRun[] | null>(null);
  protected readonly error = signal<string | null>(null);
  protected readonly asking = signal(false);
  /** A run is queued or under way: the buttons wait for it. */
  protected readonly busy = computed(
    () => this.asking() || (this.runs() ?? []).some((r) => r.finishedAt === null),
  );
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** The newest run before "Clean up now": until another shows, the queued one has not started. */
  private newestBefore: string | null = null;

  constructor() {
    void this.load();
    inject(DestroyRef).onDestroy(() => {
      if (this.timer) clearTimeout(this.timer);
    });
  }

  protected words(run: GcRun): string {
    return gcRunWords(run);
  }

  protected when(run: GcRun): string {
    return gcRunWhen(run.startedAt);
  }

  protected cause(run: GcRun): string {
    return gcRunCause(run, this.session.user()?.id ?? null);
  }

  protected policy(run: GcRun): string {
    return gcPolicyWords(run);
  }

  protected async run(dryRun: boolean): Promise<void> {
    this.asking.set(true);
    this.error.set(null);
    try {
      this.newestBefore = this.runs()?.[0]?.id ?? null;
      await this.api.runGc({ dryRun });
      // The job is queued: its report appears once a worker takes it.
      await this.load();
    } catch (error: unknown) {
      this.error.set(describeError(error));
      this.asking.set(false);
    }
  }

  private async load(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    try {
      const { items } = await this.api.gcRuns();
      this.runs.set(items);
      this.error.set(null);
      const queued = this.asking() && (items[0]?.id ?? null) === this.newestBefore;
      const running = items.some((r) => r.finishedAt === null);
      if (queued || running) this.timer = setTimeout(() => void this.load(), POLL_MS);
      else this.asking.set(false);
    } catch (error: unknown) {
      this.error.set(describeError(error));
      this.asking.set(false);
    }
  }
}
