import { DIALOG_DATA, DialogRef } from '@angular/cdk/dialog';
import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import type { TreeNode } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { chatItems } from './chat-items';
import { ConversationStore } from './conversation-store.service';
import { summaryText } from './covered-messages';
import { nodePreview } from './node-text';
import { imagesFrom, type NodeView, nodeView } from './node-view';

/**
 * How the inspector opens, for every page that opens it: focus lands on its heading, so Enter or
 * Space right after opening cannot move the conversation.
 */
export const INSPECTOR_DIALOG = {
  ariaLabelledBy: 'inspector-title',
  autoFocus: '#inspector-title',
  panelClass: 'dialog-panel',
} as const;

export interface PathInspectorData {
  /** the node (or ref) whose root → node path to show */
  at: string;
  title?: string;
}

/** One message of the path as the chat shows it, with the agent's steps folded into it. */
interface PathLine {
  id: string;
  label: string;
  text: string;
  createdAt: string;
  /** the hidden nodes folded into it, in words */
  steps: string[];
}

const LABELS: Record<NodeView['kind'], string> = {
  user: 'You',
  assistant: 'Reply',
  images: 'Images',
  question: 'Question',
  answer: 'Answer',
  progress: 'Progress',
  step: 'Step',
  summary: 'Summary',
  divider: 'Stopped',
  quiet: 'Note',
  start: 'Start',
};

/**
 * Reads any path without moving HEAD (git's inspect); one button moves HEAD there ("Continue from
 * here"). The heading, not that button, takes focus when it opens: see INSPECTOR_DIALOG. The path reads
 * as the chat does: its messages in words, the agent's steps between them folded into a count that
 * opens to the steps in words; never a node's JSON or id.
 */
@Component({
  selector: 'app-path-inspector',
  imports: [DatePipe],
  template: `
    <div class="dialog stack" role="document">
      <!-- Focused when the dialog opens (autoFocus): harmless, unlike "Continue from here". -->
      <h2 id="inspector-title" tabindex="-1">{{ data.title ?? 'Inspect' }}</h2>
      @if (error(); as e) {
        <p class="error" role="alert">{{ e }}</p>
      }
      @if (lines(); as list) {
        <p class="muted small">
          {{ list.length }} {{ list.length === 1 ? 'message' : 'messages' }} up to this point. Looking changes
          nothing: the conversation stays where it is unless you continue from here.
        </p>
        <!-- It scrolls on its own: focusable, so a keyboard can scroll it too. -->
        <ol class="path" tabindex="0" aria-label="The path to this point">
          @for (line of list; track line.id; let last = $last) {
            <li [class.last]="last">
              <span class="pill">{{ line.label }}</span>
              <span class="text">{{ line.text }}</span>
              <time class="muted small" [attr.datetime]="line.createdAt">{{
                line.createdAt | date: 'short'
              }}</time>
              @if (line.steps.length > 0) {
                <details class="steps small">
                  <summary>+{{ line.steps.length }} {{ line.steps.length === 1 ? 'step' : 'steps' }}</summary>
                  <ol>
                    @for (step of line.steps; track $index) {
                      <li>{{ step }}</li>
                    }
                  </ol>
                </details>
              }
            </li>
          }
        </ol>
      } @else if (!error()) {
        <p class="muted">Loading…</p>
      }
      <div class="row">
        @if (!store.readonly()) {
          <button type="button" class="button button--primary" [disabled]="store.busy()" (click)="moveHead()">
            Continue from here
          </button>
        }
        <button type="button" class="button" (click)="ref.close()">Close</button>
      </div>
    </div>
  `,
  styles: `
    .path {
      display: flex;
      flex-direction: column;
      gap: var(--space-2);
      max-height: 55vh;
      overflow: auto;
      margin: 0;
      padding: 0;
      list-style: none;
    }
    .path > li {
      display: flex;
      flex-wrap: wrap;
      align-items: baseline;
      gap: var(--space-2);
      padding: var(--space-2) var(--space-3);
      border-radius: var(--radius);
    }
    .path > li.last {
      background: var(--color-hover);
      font-weight: 500;
    }
    .text {
      flex: 1 1 12rem;
      overflow-wrap: anywhere;
    }
    .steps {
      flex-basis: 100%;
      color: var(--color-muted);
      font-weight: 400;
    }
    .steps ol {
      margin: var(--space-1) 0 0;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PathInspectorComponent {
  protected readonly data = inject<PathInspectorData>(DIALOG_DATA);
  protected readonly ref = inject(DialogRef);
  protected readonly store = inject(ConversationStore);
  protected readonly nodes = signal<TreeNode[] | null>(null);
  protected readonly error = signal<string | null>(null);
  protected readonly lines = computed(() => {
    const nodes = this.nodes();
    return nodes ? pathLines(nodes) : null;
  });

  constructor() {
    this.store.reader
      .path(this.store.id(), this.data.at)
      .then(({ nodes }) => this.nodes.set(nodes))
      .catch((error: unknown) => this.error.set(describeError(error)));
  }

  protected async moveHead(): Promise<void> {
    const target = this.nodes()?.at(-1)?.id ?? this.data.at;
    if (await this.store.rewind(target)) this.ref.close();
    else this.error.set(this.store.error());
  }
}

/**
 * The path's messages as the chat shows them by default (chatItems, steps hidden), each with the
 * hidden nodes that led to it, as the tree folds them (tree/turn-groups.ts): the agent's steps go
 * with the words they led to, and those before the user's next message with the agent's last
 * words. Steps after the last message fold into it, so the point the path ends at is accounted for.
 */
function pathLines(path: readonly TreeNode[]): PathLine[] {
  const items = chatItems(path, [], { steps: false });
  const shown = new Set(items.flatMap((item) => [item.node.id, item.answer?.id ?? '']));
  const lines: PathLine[] = [];
  let hidden: string[] = [];
  const byId = new Map(items.map((item) => [item.node.id, item]));
  for (const node of path) {
    const item = byId.get(node.id);
    if (item) {
      const view = nodeView(item.node, item.answer);
      // Before the user speaks, the steps are the end of the agent's turn: they go with its words.
      const before = lines.at(-1);
      if (before && (view.kind === 'user' || view.kind === 'answer')) {
        before.steps = [...before.steps, ...hidden];
        hidden = [];
      }
      lines.push({
        id: node.id,
        label: LABELS[view.kind],
        text: viewText(view),
        createdAt: node.createdAt,
        steps: hidden,
      });
      hidden = [];
    } else if (!shown.has(node.id)) hidden.push(nodePreview(node, 160));
  }
  const last = lines.at(-1);
  if (last && hidden.length > 0) last.steps = [...last.steps, ...hidden];
  return lines;
}

/** A message's words, as the chat shows them. */
function viewText(view: NodeView): string {
  switch (view.kind) {
    case 'user':
      return view.text || (view.photos.length > 0 ? 'A photo' : '');
    case 'summary':
      return summaryText(view.text);
    case 'assistant':
    case 'answer':
    case 'divider':
    case 'quiet':
      return view.text;
    case 'question':
      return view.answer === null ? view.message : `${view.message} ↳ ${view.answer}`;
    case 'progress':
      return view.message;
    case 'step':
      return view.title;
    case 'images':
      return imagesFrom(view.photos.length, view.from);
    case 'start':
      return 'The conversation starts here';
  }
}
