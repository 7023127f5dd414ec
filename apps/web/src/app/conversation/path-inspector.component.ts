import { DIALOG_DATA, DialogRef } from '@angular/cdk/dialog';
import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import type { TreeNode } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ConversationStore } from './conversation-store.service';
import { nodePreview } from './node-text';

export interface PathInspectorData {
  /** the node (or ref) whose root → node path to show */
  at: string;
  title?: string;
}

/** Reads any path without moving HEAD (git's inspect); one button moves HEAD there. */
@Component({
  selector: 'app-path-inspector',
  imports: [DatePipe],
  template: `
    <div class="dialog stack" role="document">
      <h2 id="inspector-title">{{ data.title ?? 'Inspect' }}</h2>
      <p class="muted small mono">at {{ data.at.slice(0, 12) }}</p>
      @if (error(); as e) {
        <p class="error" role="alert">{{ e }}</p>
      }
      @if (nodes(); as list) {
        <!-- It scrolls on its own: focusable, so a keyboard can scroll it too. -->
        <ol class="path" tabindex="0" aria-label="The path to this point">
          @for (node of list; track node.id; let last = $last) {
            <li [class.last]="last">
              <span class="pill">{{ node.kind }}</span>
              <span>{{ preview(node) }}</span>
              <time class="muted small" [attr.datetime]="node.createdAt">{{
                node.createdAt | date: 'short'
              }}</time>
            </li>
          }
        </ol>
      } @else if (!error()) {
        <p class="muted">Loading…</p>
      }
      <div class="row">
        @if (!store.readonly()) {
          <button type="button" class="button button--primary" [disabled]="store.busy()" (click)="moveHead()">
            Move HEAD here
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
    .path li {
      display: flex;
      flex-wrap: wrap;
      align-items: baseline;
      gap: var(--space-2);
      padding: var(--space-2) var(--space-3);
      border-radius: var(--radius);
    }
    .path li.last {
      background: var(--color-hover);
      font-weight: 500;
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
  protected readonly preview = (node: TreeNode): string => nodePreview(node, 120);

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
