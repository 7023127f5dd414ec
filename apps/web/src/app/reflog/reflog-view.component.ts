import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, inject, input, output } from '@angular/core';
import type { ReflogEntry, TreeNode } from '@sweatpants/domain';

import { discardedBranches } from './discarded-branches';
import { madeWayForMove, type ReflogSentence, reflogSentence } from './reflog-sentence';
import { AgentsService } from '../conversations/agents.service';

/** A reflog entry, optionally with the conversation and owner the admin audit adds. */
export type ReflogRow = ReflogEntry & { conversationId?: string; ownerId?: string };

interface Line {
  entry: ReflogRow;
  sentence: ReflogSentence;
  /** its newHead is off the current HEAD's path: a step of a discarded branch */
  discarded: boolean;
  /** the newest entry of its discarded branch: the one that offers Recover */
  recoverable: boolean;
  /** the recoverable entry of the branch the latest rewind, edit… left */
  justLeft: boolean;
  here: boolean;
  /** the ids, for a tooltip only: never in the visible text */
  ids: string;
  conversation: string | null;
  owner: string | null;
}

/** The timeline of HEAD moves, told as what happened: who did what, when, and what can come back. */
@Component({
  selector: 'app-reflog-view',
  imports: [DatePipe],
  template: `
    @if (lines().length === 0) {
      <p class="muted">Nothing has happened yet.</p>
    }
    <ol class="timeline" aria-label="What happened, newest first">
      @for (line of lines(); track line.entry.id) {
        <li
          class="entry"
          [class.entry--discarded]="line.discarded"
          [class.entry--just-left]="line.justLeft"
          [attr.data-action]="line.entry.action"
          [attr.data-index]="line.entry.index"
        >
          <p class="sentence" [title]="line.ids">{{ line.sentence.text }}</p>
          @if (line.sentence.detail; as detail) {
            <p class="detail muted">“{{ detail }}”</p>
          }
          <p class="small muted meta">
            <time [attr.datetime]="line.entry.createdAt">{{ line.entry.createdAt | date: 'medium' }}</time>
            @if (line.conversation !== null) {
              <span [title]="'Conversation ' + (line.entry.conversationId ?? '')"
                >&nbsp;· in {{ line.conversation }}</span
              >
            }
            @if (line.owner) {
              <span>&nbsp;· {{ line.owner }}</span>
            }
          </p>
          <div class="row">
            @if (line.justLeft) {
              <span class="badge recoverable" title="The conversation left this branch with your latest move">
                The branch you just left
              </span>
            } @else if (line.recoverable) {
              <span class="badge recoverable" title="This branch is no longer part of the conversation">
                Discarded branch: recoverable
              </span>
            }
            @if (line.here) {
              <span class="small muted">The conversation is here now</span>
            }
            <button type="button" class="button button--small" (click)="inspect.emit(line.entry)">
              Inspect
            </button>
            @if (!readonly() && line.recoverable) {
              <button type="button" class="button button--small" (click)="recover.emit(line.entry)">
                Recover this branch
              </button>
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
    .entry--discarded {
      border-style: dashed;
    }
    .entry--just-left {
      border-color: var(--color-warn-border);
      border-width: 2px;
    }
    .entry--discarded::before {
      background: var(--color-border);
    }
    .sentence {
      margin: 0;
      overflow-wrap: anywhere;
    }
    .detail {
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
  /** the conversation's nodes by id (its tree): what the sentences quote */
  readonly nodes = input<ReadonlyMap<string, TreeNode>>(new Map());
  /** the ids on the current HEAD's path; null when unknown (no entry is then marked discarded) */
  readonly onPath = input<ReadonlySet<string> | null>(null);
  readonly head = input<string | null>(null);
  /** the signed-in user's id: their moves read "You …" */
  readonly you = input<string | null>(null);
  /** user id → display name, for other people the page knows */
  readonly names = input<ReadonlyMap<string, string>>(new Map());
  /** the conversation's owner, when every entry is of one conversation (an audit row says its own) */
  readonly owner = input<string | null>(null);
  /** the conversation's agent (`tidying`, `concierge`…) */
  readonly agent = input<string | null>(null);
  /** the admin audit: conversation id → title and → agent, where the page knows them */
  readonly titles = input<ReadonlyMap<string, string>>(new Map());
  readonly agents = input<ReadonlyMap<string, string>>(new Map());
  private readonly agentsRegistered = inject(AgentsService);
  readonly readonly = input(false);
  readonly showConversation = input(false);
  readonly inspect = output<ReflogRow>();
  readonly recover = output<ReflogRow>();

  protected readonly lines = computed((): Line[] => {
    const nodes = this.nodes();
    const onPath = this.onPath();
    const head = this.head();
    const you = this.you();
    const names = this.names();
    const speakers = this.agentsRegistered.speakers();
    // A stop that only made way for a move is told by the move ("You asked for another answer").
    const shown = this.entries().filter((entry) => !madeWayForMove(entry, nodes));
    const branches = discardedBranches(shown, nodes, onPath);
    return shown.map((entry) => {
      const agent =
        (entry.conversationId ? this.agents().get(entry.conversationId) : undefined) ?? this.agent();
      const sentence = reflogSentence(entry, {
        nodes,
        you,
        names,
        agent,
        speakers,
        owner: entry.ownerId ?? this.owner(),
      });
      return {
        entry,
        sentence,
        discarded: onPath !== null && !onPath.has(entry.newHead),
        recoverable: branches.recoverable.has(entry.id),
        justLeft: branches.justLeft === entry.id,
        here: entry.newHead === head,
        ids: `HEAD@{${entry.index}} · ${entry.action} · ${entry.newHead.slice(0, 12)}`,
        conversation: this.conversationLabel(entry),
        owner: this.ownerLabel(entry),
      };
    });
  });

  private conversationLabel(entry: ReflogRow): string | null {
    if (!this.showConversation() || !entry.conversationId) return null;
    const title = this.titles().get(entry.conversationId);
    return title ? `'${title}'` : title === '' ? 'an untitled conversation' : 'a conversation';
  }

  private ownerLabel(entry: ReflogRow): string | null {
    if (!this.showConversation() || !entry.ownerId) return null;
    if (entry.ownerId === this.you()) return 'yours';
    // The api gives admins ids, not names: another person's conversation says so without one.
    const name = this.names().get(entry.ownerId);
    return name ? `owned by ${name}` : "another user's";
  }
}
