import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, input, output } from '@angular/core';
import type { ReflogAction, ReflogEntry } from '@sweatpants/domain';

/** A reflog entry, optionally with the conversation and owner the admin audit adds. */
export type ReflogRow = ReflogEntry & { conversationId?: string; ownerId?: string };

const ACTION_LABELS: Record<ReflogAction, string> = {
  create: 'created',
  append: 'appended',
  rewind: 'rewound',
  edit: 'edited',
  cancel: 'cancelled',
  recover: 'recovered',
  compact: 'compacted',
  fork: 'forked',
  return: 'returned',
};

/** The timeline of HEAD moves: what moved it, when, who, and what it pointed at. */
@Component({
  selector: 'app-reflog-view',
  imports: [DatePipe],
  template: `
    @if (entries().length === 0) {
      <p class="muted">No HEAD moves yet.</p>
    }
    <ol class="timeline" aria-label="HEAD moves, newest first">
      @for (entry of entries(); track entry.id) {
        <li class="entry" [attr.data-action]="entry.action">
          <div class="entry__head">
            <span class="pill action">{{ label(entry.action) }}</span>
            <span class="mono muted">HEAD&#64;{{ '{' }}{{ entry.index }}{{ '}' }}</span>
            <time class="small muted" [attr.datetime]="entry.createdAt">{{
              entry.createdAt | date: 'medium'
            }}</time>
          </div>
          <p class="preview">{{ previews().get(entry.newHead) ?? entry.newHead.slice(0, 12) }}</p>
          <p class="small muted">
            by {{ entry.actorId }}
            @if (entry.message) {
              · {{ entry.message }}
            }
            @if (showConversation() && entry.conversationId) {
              · conversation <span class="mono">{{ entry.conversationId.slice(0, 10) }}</span>
              @if (entry.ownerId) {
                of {{ entry.ownerId }}
              }
            }
          </p>
          <div class="row">
            <button type="button" class="button button--small" (click)="inspect.emit(entry)">Inspect</button>
            @if (!readonly() && entry.newHead !== head()) {
              <button type="button" class="button button--small" (click)="recover.emit(entry)">
                Recover
              </button>
            }
            @if (entry.newHead === head()) {
              <span class="small muted">HEAD is here</span>
            }
          </div>
        </li>
      }
    </ol>
  `,
  styles: `
    .timeline {
      display: flex;
      flex-direction: column;
      gap: var(--space-3);
      margin: 0;
      padding: 0 0 0 var(--space-4);
      border-left: 2px solid var(--color-border);
      list-style: none;
    }
    .entry {
      position: relative;
      padding: var(--space-3) var(--space-4);
      border: 1px solid var(--color-border);
      border-radius: var(--radius);
      background: var(--color-surface);
    }
    .entry::before {
      position: absolute;
      top: 1.1rem;
      left: calc(-1 * var(--space-4) - 6px);
      width: 10px;
      height: 10px;
      border-radius: 50%;
      background: var(--color-accent);
      content: '';
    }
    .entry__head {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: var(--space-2);
    }
    .preview {
      margin: var(--space-1) 0 0;
      overflow-wrap: anywhere;
    }
    .entry p {
      margin-bottom: var(--space-2);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ReflogViewComponent {
  readonly entries = input.required<readonly ReflogRow[]>();
  /** node id → a one-line preview of that node */
  readonly previews = input<ReadonlyMap<string, string>>(new Map());
  readonly head = input<string | null>(null);
  readonly readonly = input(false);
  readonly showConversation = input(false);
  readonly inspect = output<ReflogRow>();
  readonly recover = output<ReflogRow>();

  protected label(action: ReflogAction): string {
    return ACTION_LABELS[action];
  }
}
