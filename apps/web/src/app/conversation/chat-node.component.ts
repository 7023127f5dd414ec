import { CdkMenu, CdkMenuItem, CdkMenuTrigger } from '@angular/cdk/menu';
import { DatePipe } from '@angular/common';
import {
  afterNextRender,
  ChangeDetectionStrategy,
  Component,
  computed,
  effect,
  ElementRef,
  inject,
  Injector,
  input,
  output,
  signal,
  untracked,
  viewChild,
} from '@angular/core';
import type { TreeNode } from '@sweatpants/domain';

import { BlobImageComponent } from '../core/blob-image.component';
import { agentStepsShown, showAgentSteps } from './agent-steps';
import { BranchNavComponent } from './branch-nav.component';
import { MarkdownTextComponent } from './markdown-text.component';
import { type ChatItem, chatItems } from './chat-items';
import { ConversationStore } from './conversation-store.service';
import { coveredFromTree, loadCovered, summaryText } from './covered-messages';
import { isTypedAnswer, type NodeView, nodeView } from './node-view';

let nextId = 0;
/** How long "Copied" shows after a copy. */
const COPIED_MS = 2000;

/** Whose the ⋯ menu is, as its label says it: never a node kind. */
const ACTION_TARGETS: Record<NodeView['kind'], string> = {
  user: 'your message',
  assistant: 'this reply',
  images: 'these images',
  question: 'this question',
  answer: 'this answer',
  summary: 'this summary',
  progress: 'this progress note',
  step: 'this step',
  divider: 'this point',
  quiet: 'this note',
  start: 'the start',
};

function shortened(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** The offline model opens each reply with "(offline)"; a copy leaves it out. */
export function withoutOfflineLabel(text: string): string {
  return text.replace(/^\(offline\)\s*/, '');
}

/** The messages a summary covers: read off the tree, asked of the api, or not to be had. */
type Covered =
  { state: 'ready'; items: ChatItem[] } | { state: 'loading' } | { state: 'failed' } | { state: 'none' };

/**
 * One node of the HEAD path as the chat shows it, with its branch switcher and its actions. The
 * root carries the chat's "Show agent steps" switch; a compaction summary shows the messages it
 * covers (they are still in the tree) and, under them, a quiet marker that the agent's memory of
 * them is the summary.
 */
@Component({
  selector: 'app-chat-node',
  imports: [
    BlobImageComponent,
    BranchNavComponent,
    CdkMenu,
    CdkMenuItem,
    CdkMenuTrigger,
    DatePipe,
    MarkdownTextComponent,
  ],
  templateUrl: './chat-node.component.html',
  styleUrl: './chat-node.component.css',
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { '[class]': '"node node--" + view().kind' },
})
export class ChatNodeComponent {
  private readonly store = inject(ConversationStore, { optional: true });
  private readonly injector = inject(Injector);
  private readonly host = inject<ElementRef<HTMLElement>>(ElementRef);

  readonly node = input.required<TreeNode>();
  readonly answer = input<TreeNode | null>(null);
  readonly siblings = input<{ ids: string[]; index: number }>({ ids: [], index: 0 });
  readonly readonly = input(false);
  readonly busy = input(false);
  /**
   * Which agent said or asked this, in words ("Donation helper"), when it is not the
   * conversation's own agent (the donation helper's reply inside the coach's conversation).
   */
  readonly author = input<string | null>(null);
  /** How the conversation's agent is named in words ("the coach"), for what a summary stands for. */
  readonly speaker = input('the agent');
  protected readonly memoryLine = computed(() => {
    const who = this.speaker();
    return `${who.charAt(0).toUpperCase()}${who.slice(1)}’s memory of the above is a summary`;
  });

  readonly switchTo = output<string>();
  readonly edit = output<{ nodeId: string; text: string }>();
  readonly rewind = output<string>();
  readonly regenerate = output<string>();
  readonly fork = output<string>();
  readonly inspect = output<string>();

  protected readonly view = computed(() => nodeView(this.node(), this.answer()));
  /**
   * The person's own words can be edited: a message, and words typed at a question instead of a
   * tap (a `response` with action `other`), which are then answered again (ConversationStore.edit).
   */
  protected readonly editable = computed(() => this.node().kind === 'user' || isTypedAnswer(this.node()));
  protected readonly editing = signal(false);
  protected readonly confirmingRewind = signal(false);
  protected readonly copied = signal(false);
  protected readonly confirmId = `confirm-${nextId++}`;
  protected readonly draft = signal('');
  protected readonly editId = `edit-${nextId++}`;
  protected readonly stepsId = `steps-${nextId++}`;
  /** The menu button says whose message it acts on, in words ("your message", "this reply"). */
  protected readonly actionsLabel = computed(() => `Actions for ${ACTION_TARGETS[this.view().kind]}`);
  /** The branch switcher's name, unique on the page: whose branches, in its first words. */
  protected readonly branchesLabel = computed(() => {
    const view = this.view();
    const words =
      view.kind === 'user' || view.kind === 'assistant'
        ? view.text
        : view.kind === 'question'
          ? view.message
          : '';
    const quoted = words.trim() ? ` “${shortened(withoutOfflineLabel(words.trim()), 40)}”` : '';
    return `Branches of ${ACTION_TARGETS[view.kind]}${quoted}`;
  });
  private readonly editBox = viewChild<ElementRef<HTMLTextAreaElement>>('box');
  private readonly keepGoingButton = viewChild<ElementRef<HTMLButtonElement>>('keepGoingButton');
  private readonly actionsButton = viewChild<ElementRef<HTMLButtonElement>>('actionsButton');
  protected readonly hasSiblings = computed(() => this.siblings().ids.length > 1);
  /** Messages, questions and summaries carry the menu; quiet nodes stay quiet (the tree reaches them). */
  protected readonly hasActions = computed(() =>
    ['user', 'assistant', 'question', 'summary', 'answer'].includes(this.view().kind),
  );
  protected readonly stepsShown = agentStepsShown;
  protected readonly summaryText = computed(() => {
    const view = this.view();
    return view.kind === 'summary' ? summaryText(view.text) : '';
  });

  /** The covered nodes the api returned, for a summary whose range the tree does not hold. */
  private readonly loaded = signal<{ toId: string; nodes: TreeNode[] | 'loading' | 'failed' } | null>(null);
  private readonly coveredNodes = computed((): TreeNode[] | 'loading' | 'failed' | null => {
    const view = this.view();
    if (view.kind !== 'summary' || !this.store) return null;
    const fromTree = coveredFromTree(this.store.tree(), view);
    if (fromTree) return fromTree;
    const loaded = this.loaded();
    return loaded?.toId === view.toId ? loaded.nodes : null;
  });
  protected readonly covered = computed((): Covered => {
    const nodes = this.coveredNodes();
    if (nodes === 'loading' || nodes === 'failed') return { state: nodes };
    if (nodes === null) return { state: this.store && this.store.loading() ? 'loading' : 'none' };
    return { state: 'ready', items: chatItems(nodes, [], { steps: this.stepsShown() }) };
  });

  constructor() {
    // A summary whose range is not in the (loaded) tree: ask the api for the path at its end.
    effect(() => {
      const view = this.view();
      const store = this.store;
      if (view.kind !== 'summary' || !store || store.loading()) return;
      if (this.coveredNodes() !== null) return;
      const covers = { fromId: view.fromId, toId: view.toId };
      const conversationId = store.id();
      untracked(() => {
        this.loaded.set({ toId: covers.toId, nodes: 'loading' });
        loadCovered(store.reader, conversationId, covers).then(
          (nodes) => this.loaded.set({ toId: covers.toId, nodes }),
          () => this.loaded.set({ toId: covers.toId, nodes: 'failed' }),
        );
      });
    });
  }

  protected siblingsOf(nodeId: string): { ids: string[]; index: number } {
    return this.store?.siblings(nodeId) ?? { ids: [], index: 0 };
  }

  protected toggleSteps(on: boolean): void {
    showAgentSteps(on);
    // The chat keeps its newest message in view as it grows; the switch stays where it was tapped.
    afterNextRender(() => this.host.nativeElement.scrollIntoView?.({ block: 'nearest' }), {
      injector: this.injector,
    });
  }

  /**
   * Copies the message's words; "Copied" for a moment (said to screen readers too). The offline
   * model's "(offline)" label is for the chat, not for what the person pastes elsewhere.
   */
  protected async copy(text: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(withoutOfflineLabel(text));
      this.copied.set(true);
      setTimeout(() => this.copied.set(false), COPIED_MS);
    } catch {
      this.store?.error.set('Could not copy: this browser does not allow it here.');
    }
  }

  /** Opens the edit box with the message's words and puts the caret at their end, in the box. */
  protected startEdit(): void {
    const view = this.view();
    this.draft.set(view.kind === 'user' ? view.text : '');
    this.editing.set(true);
    // After the render that draws the box; the menu hands focus back to its button before that.
    this.afterRender(() => {
      const box = this.editBox()?.nativeElement;
      box?.focus();
      box?.setSelectionRange(box.value.length, box.value.length);
    });
  }

  /** Enter saves, Shift+Enter is a new line: the rule of every text box in the chat. */
  protected editEnter(event: Event): void {
    if ((event as KeyboardEvent).isComposing) return;
    event.preventDefault();
    this.saveEdit();
  }

  protected cancelEdit(): void {
    this.editing.set(false);
    this.afterRender(() => this.actionsButton()?.nativeElement.focus());
  }

  /** The question "Go back to here?" takes focus on its harmless answer, Keep going. */
  protected confirmRewind(): void {
    this.confirmingRewind.set(true);
    this.afterRender(() => this.keepGoingButton()?.nativeElement.focus());
  }

  protected keepGoing(): void {
    this.confirmingRewind.set(false);
    this.afterRender(() => this.actionsButton()?.nativeElement.focus());
  }

  private afterRender(work: () => void): void {
    afterNextRender(work, { injector: this.injector });
  }

  protected saveEdit(): void {
    const text = this.draft().trim();
    if (!text) return;
    this.edit.emit({ nodeId: this.node().id, text });
    this.editing.set(false);
  }
}
