import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, effect, input, output, signal } from '@angular/core';
import type { TreeListingNode } from '@sweatpants/domain';

import { nodeText } from '../conversation/node-text';
import { layoutTree, NODE_HEIGHT, NODE_WIDTH, type TreeLayout } from './tree-layout';

/**
 * The whole conversation as a git-like graph (elkjs layout, SVG). The HEAD path is highlighted;
 * clicking a node inspects it without moving HEAD, and a button then moves HEAD there.
 */
@Component({
  selector: 'app-tree-view',
  imports: [DatePipe],
  templateUrl: './tree-view.component.html',
  styleUrl: './tree-view.component.css',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class TreeViewComponent {
  readonly nodes = input.required<readonly TreeListingNode[]>();
  /** ids on the root → HEAD path */
  readonly headPath = input.required<ReadonlySet<string>>();
  readonly head = input<string | null>(null);
  readonly readonly = input(false);
  readonly moveHead = output<string>();

  protected readonly width = NODE_WIDTH;
  protected readonly height = NODE_HEIGHT;
  protected readonly layout = signal<TreeLayout | null>(null);
  protected readonly layoutError = signal<string | null>(null);
  protected readonly selectedId = signal<string | null>(null);
  protected readonly selected = computed(() => {
    const id = this.selectedId();
    return id ? (this.nodes().find((n) => n.id === id) ?? null) : null;
  });
  protected readonly selectedText = computed(() => {
    const node = this.selected();
    return node ? nodeText(node) || JSON.stringify(node.payload, null, 2) : '';
  });
  private ticket = 0;

  constructor() {
    effect(() => {
      const nodes = this.nodes();
      const ticket = ++this.ticket;
      layoutTree(nodes)
        .then((layout) => {
          if (ticket === this.ticket) this.layout.set(layout);
        })
        .catch((error: unknown) => {
          if (ticket === this.ticket)
            this.layoutError.set(error instanceof Error ? error.message : 'layout failed');
        });
    });
  }

  protected select(id: string): void {
    this.selectedId.set(id);
  }
}
