import { ChangeDetectionStrategy, Component, computed, inject, type OnDestroy, signal } from '@angular/core';
import type { Compaction, TreeNode } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { ConversationStore } from './conversation-store.service';

const POLL_MS = 1_500;
/**
 * A compaction someone asks for keeps the 2 latest exchanges as they are (the api's REQUESTED_TAIL),
 * so until a third one there is nothing to squash and the button is not offered.
 */
const MIN_EXCHANGES = 3;
const STATE_LABELS: Record<Compaction['state'], string> = {
  waiting: 'Queued…',
  active: 'Summarising…',
  completed: 'Done',
  failed: 'Failed',
};

/** Squashes the branch into a summary (a background job) and follows the job until it ends. */
@Component({
  selector: 'app-compaction-panel',
  template: `
    <section class="card stack" aria-labelledby="compact-heading">
      <h2 id="compact-heading">History</h2>
      <p class="muted small">
        Long conversations can be summarised. Nothing is deleted: the original messages stay reachable.
      </p>
      <!-- One state at a time: the button, or the job that ran, or that there is nothing yet (a
           finished compaction leaves nothing new to squash, and says what it did instead). -->
      @if (worthCompacting() || running()) {
        <div class="row">
          <button type="button" class="button button--small" [disabled]="running()" (click)="compact()">
            Compact history
          </button>
        </div>
      } @else if (!job()) {
        <p class="small muted not-yet">Nothing to summarise yet: this is offered after a few exchanges.</p>
      }
      <div aria-live="polite">
        @if (job(); as j) {
          <p class="small job">
            {{ label(j) }}
            @if (j.covers) {
              — {{ j.covers.count }} steps summarised
            }
            @if (j.state === 'completed' && !j.covers && j.reason) {
              — {{ reasonInWords(j.reason) }}
            }
            @if (j.error) {
              <span class="error small">{{ j.error }}</span>
            }
          </p>
          @if (running()) {
            <progress aria-label="Compaction in progress"></progress>
          }
        }
        @if (error(); as e) {
          <p class="error small" role="alert">{{ e }}</p>
        }
      </div>
    </section>
  `,
  // The card's own gap spaces its lines; a paragraph's margin on top doubled it.
  styles: `
    p {
      margin: 0;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class CompactionPanelComponent implements OnDestroy {
  private readonly api = inject(ApiService);
  private readonly store = inject(ConversationStore);
  private timer: ReturnType<typeof setTimeout> | null = null;

  protected readonly job = signal<Compaction | null>(null);
  protected readonly running = signal(false);
  protected readonly error = signal<string | null>(null);

  /** Exchanges since the last summary: the user's messages and answers, as the api counts them. */
  protected readonly worthCompacting = computed(
    () => exchangesSinceSummary(this.store.path()) >= MIN_EXCHANGES,
  );

  protected label(job: Compaction): string {
    if (job.state === 'completed' && !job.covers && job.reason) return 'Nothing was summarised';
    return STATE_LABELS[job.state];
  }

  /** The api's reason ("nothing to squash: …") without its jargon prefix. */
  protected reasonInWords(reason: string): string {
    return reason.replace(/^nothing to squash:\s*/i, '');
  }

  protected async compact(): Promise<void> {
    this.error.set(null);
    try {
      const { jobId } = await this.api.compact(this.store.id());
      this.running.set(true);
      this.job.set({ jobId, state: 'waiting' });
      this.poll(jobId);
    } catch (error: unknown) {
      this.error.set(describeError(error));
    }
  }

  ngOnDestroy(): void {
    if (this.timer) clearTimeout(this.timer);
  }

  private poll(jobId: string): void {
    this.timer = setTimeout(async () => {
      try {
        const { items } = await this.api.compactions(this.store.id());
        const job = items.find((item) => item.jobId === jobId);
        if (job) this.job.set(job);
        if (job && (job.state === 'completed' || job.state === 'failed')) {
          this.running.set(false);
          await this.store.refreshPath();
          await this.store.refreshTree();
          return;
        }
        this.poll(jobId);
      } catch (error: unknown) {
        this.running.set(false);
        this.error.set(describeError(error));
      }
    }, POLL_MS);
  }
}

function exchangesSinceSummary(path: readonly TreeNode[]): number {
  let start = 0;
  path.forEach((node, i) => {
    if (node.kind === 'summary') start = i + 1;
  });
  return path
    .slice(start)
    .filter(
      (node) =>
        (node.kind === 'user' && (node.payload as Record<string, unknown>)['synthetic'] !== true) ||
        node.kind === 'response',
    ).length;
}
