import { CdkMenu, CdkMenuItem, CdkMenuTrigger } from '@angular/cdk/menu';
import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, input, output, signal } from '@angular/core';
import type { TreeNode } from '@sweatpants/domain';

import { BranchNavComponent } from './branch-nav.component';
import { nodeView } from './node-view';

let nextId = 0;

/** One node of the HEAD path as the chat shows it, with its branch switcher and its actions. */
@Component({
  selector: 'app-chat-node',
  imports: [BranchNavComponent, CdkMenu, CdkMenuItem, CdkMenuTrigger, DatePipe],
  templateUrl: './chat-node.component.html',
  styleUrl: './chat-node.component.css',
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { '[class]': '"node node--" + view().kind' },
})
export class ChatNodeComponent {
  readonly node = input.required<TreeNode>();
  readonly answer = input<TreeNode | null>(null);
  readonly siblings = input<{ ids: string[]; index: number }>({ ids: [], index: 0 });
  readonly readonly = input(false);
  readonly busy = input(false);

  readonly switchTo = output<string>();
  readonly edit = output<{ nodeId: string; text: string }>();
  readonly rewind = output<string>();
  readonly fork = output<string>();
  readonly inspect = output<string>();

  protected readonly view = computed(() => nodeView(this.node(), this.answer()));
  protected readonly editing = signal(false);
  protected readonly draft = signal('');
  protected readonly editId = `edit-${nextId++}`;
  protected readonly hasSiblings = computed(() => this.siblings().ids.length > 1);
  /** Messages, questions and summaries carry the menu; quiet nodes stay quiet (the tree reaches them). */
  protected readonly hasActions = computed(() =>
    ['user', 'assistant', 'question', 'summary', 'answer'].includes(this.view().kind),
  );

  protected startEdit(): void {
    const view = this.view();
    this.draft.set(view.kind === 'user' ? view.text : '');
    this.editing.set(true);
  }

  protected saveEdit(): void {
    const text = this.draft().trim();
    if (!text) return;
    this.edit.emit({ nodeId: this.node().id, text });
    this.editing.set(false);
  }
}
