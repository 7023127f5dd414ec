import { CdkConnectedOverlay, type ConnectedPosition } from '@angular/cdk/overlay';
import { DatePipe } from '@angular/common';
import {
  afterNextRender,
  afterRenderEffect,
  ChangeDetectionStrategy,
  Component,
  computed,
  ElementRef,
  inject,
  Injector,
  input,
  output,
  signal,
  viewChild,
} from '@angular/core';
import type { TreeListingNode } from '@sweatpants/domain';

import { insideAttempt, latestTip } from '../conversation/branch-tip';
import { boxWords, oneLine, stepCount } from './group-words';
import { TreeInspectorComponent } from './tree-inspector.component';
import { BOX_WIDTH, layoutTree } from './tree-layout';
import { type TurnGroup, turnGroups } from './turn-groups';
import { AgentsService } from '../conversations/agents.service';
import { matchesMedia } from '../core/media-query';

/** A phone: the inspector opens next to the tapped box instead of beside the tree. */
const PHONE = '(max-width: 600px)';
const PHONE_BOX_WIDTH = 236;
/** about how many characters of 13px text fit a box's line */
const CHAR_WIDTH = 6.9;

const BELOW_OR_ABOVE: ConnectedPosition[] = [
  { originX: 'start', originY: 'bottom', overlayX: 'start', overlayY: 'top', offsetY: 6 },
  { originX: 'start', originY: 'top', overlayX: 'start', overlayY: 'bottom', offsetY: -6 },
];

/** A box as the template draws it. */
interface BoxView {
  id: string;
  group: TurnGroup;
  x: number;
  y: number;
  kind: string;
  /** who and what: "You", "The coach asked" */
  tag: string;
  line: string;
  steps: string;
  time: string;
  onHead: boolean;
  isHead: boolean;
}

/**
 * The whole conversation as a graph of messages: one box per message the chat shows, the
 * internal nodes of a turn folded into it ("+5 steps"), branches as columns to the right, the
 * HEAD path highlighted. Clicking (or Enter/Space on) a box inspects it without moving HEAD, in a
 * side panel on a desktop and in a panel anchored to the box on a phone; a button there moves HEAD.
 * The boxes are one tab stop; arrow keys move between them.
 */
@Component({
  selector: 'app-tree-view',
  imports: [CdkConnectedOverlay, DatePipe, TreeInspectorComponent],
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
  /** the signed-in user's id: their messages read "You" */
  readonly you = input<string | null>(null);
  readonly moveHead = output<string>();

  private readonly injector = inject(Injector);
  private readonly agents = inject(AgentsService);
  private readonly host = inject<ElementRef<HTMLElement>>(ElementRef);
  private readonly canvas = viewChild<ElementRef<HTMLElement>>('canvas');
  private readonly inspector = viewChild(TreeInspectorComponent);
  protected readonly phone = matchesMedia(PHONE);
  protected readonly positions = BELOW_OR_ABOVE;

  protected readonly turns = computed(() => turnGroups(this.nodes(), { head: this.head() }));
  private readonly byId = computed(() => new Map(this.nodes().map((node) => [node.id, node])));
  /** boxes on the HEAD path: a box lies on it when its first node does */
  protected readonly headBoxes = computed(() => {
    const path = this.headPath();
    const ids = new Set<string>();
    for (const group of this.turns().groups.values())
      if (path.has(group.nodes[0]?.id ?? '')) ids.add(group.id);
    return ids;
  });
  protected readonly headBox = computed(() => {
    const head = this.head();
    return head === null ? null : (this.turns().boxOf.get(head) ?? null);
  });
  protected readonly layout = computed(() =>
    layoutTree(this.turns(), {
      boxWidth: this.phone() ? PHONE_BOX_WIDTH : BOX_WIDTH,
      onHead: this.headBoxes(),
    }),
  );
  protected readonly boxes = computed<BoxView[]>(() => {
    const { boxes, boxWidth } = this.layout();
    const groups = this.turns().groups;
    const onHead = this.headBoxes();
    const headBox = this.headBox();
    const ctx = { you: this.you(), speakers: this.agents.speakers() };
    const chars = Math.floor((boxWidth - 20) / CHAR_WIDTH);
    return boxes.flatMap((box) => {
      const group = groups.get(box.id);
      if (!group) return [];
      const words = boxWords(group, ctx);
      const steps = group.steps.length;
      const isHead = box.id === headBox;
      const line = oneLine(words.line, chars);
      return [
        {
          id: box.id,
          group,
          x: box.x,
          y: box.y,
          kind: group.kind,
          tag: words.tag,
          line,
          steps: stepCount(steps),
          time: (group.message ?? group.nodes[0])?.createdAt ?? '',
          onHead: onHead.has(box.id),
          isHead,
        },
      ];
    });
  });
  protected readonly messages = computed(
    () => this.boxes().filter((box) => box.kind !== 'steps' && box.kind !== 'start').length,
  );

  protected readonly selectedId = signal<string | null>(null);
  protected readonly selected = computed(() => {
    const id = this.selectedId();
    return id === null ? null : (this.boxes().find((box) => box.id === id) ?? null);
  });
  protected readonly inspected = computed(() => {
    const box = this.selected();
    return box
      ? { box, words: boxWords(box.group, { you: this.you(), speakers: this.agents.speakers() }) }
      : null;
  });
  /** On another branch: where switching to it lands, its latest tip, when not the box itself. */
  protected readonly branchTip = computed(() => {
    const box = this.selected();
    const last = box?.group.nodes.at(-1);
    if (!box || !last || box.onHead) return null;
    const tip = latestTip(this.byId(), last.id);
    return tip === last.id ? null : tip;
  });
  /** Whether the selected box is inside a subagent's attempt: nothing goes on from there. */
  protected readonly inAttempt = computed(() => {
    const last = this.selected()?.group.nodes.at(-1);
    return last !== undefined && insideAttempt(this.byId(), last.id);
  });
  /** the selected box's element, where the phone's panel is anchored */
  protected readonly anchor = signal<Element | null>(null);
  protected readonly anchorOrigin = computed(() => this.anchor() ?? this.host.nativeElement);
  /** said to a screen reader when a box is inspected */
  protected readonly announcement = signal('');

  /** The box the keyboard is on: the one tab stop among the boxes. */
  private readonly focusId = signal<string | null>(null);
  protected readonly tabStop = computed(() => {
    const groups = this.turns().groups;
    for (const id of [this.focusId(), this.selectedId(), this.headBox()]) if (id && groups.has(id)) return id;
    return this.turns().roots[0] ?? null;
  });
  private scrolledToHead = false;

  constructor() {
    // Once laid out, a desktop's tree opens at HEAD, the end of the conversation, as the chat does.
    afterRenderEffect(() => this.showHead());
  }

  protected select(id: string): void {
    const box = this.boxes().find((b) => b.id === id);
    if (!box) return;
    this.focusId.set(id);
    this.selectedId.set(id);
    this.anchor.set(this.boxElement(id));
    const words = boxWords(box.group, { you: this.you(), speakers: this.agents.speakers() });
    this.announcement.set(`Inspecting ${words.title}: ${oneLine(words.line, 120)}`);
    if (this.phone()) {
      // The panel opens next to the box: focus goes into it, Escape brings it back.
      afterNextRender(() => this.inspector()?.focus(), { injector: this.injector });
    }
  }

  protected close(): void {
    const id = this.selectedId();
    this.selectedId.set(null);
    this.anchor.set(null);
    if (id) this.focusBox(id);
  }

  /** Clicks outside the phone's panel close it, except on a box: that opens the box instead. */
  protected outsideClick(event: MouseEvent): void {
    const target = event.target instanceof Element ? event.target : null;
    if (!target?.closest('g.node')) this.dismiss();
  }

  /** Closes the inspector where focus is not to move (the overlay went, a click elsewhere). */
  protected dismiss(): void {
    this.selectedId.set(null);
    this.anchor.set(null);
  }

  protected jumpToHead(): void {
    const id = this.headBox();
    if (id) this.focusBox(id, 'center');
  }

  /**
   * Enter or Space inspects the box; arrow keys walk the graph: up to the box above, down the
   * branch, across a row; Home and End go to the start and to HEAD; Escape closes the inspector.
   */
  protected keydown(event: KeyboardEvent, id: string): void {
    if (event.key === 'Escape' && this.selectedId() !== null) {
      this.dismiss();
      return;
    }
    // Keys pressed faster than focus follows act where focus is going.
    const from = this.focusId();
    const current = from !== null && this.turns().groups.has(from) ? from : id;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      this.select(current);
      return;
    }
    const target = this.neighbour(event.key, current);
    if (target === undefined) return;
    event.preventDefault();
    if (target) this.focusBox(target);
  }

  private neighbour(key: string, id: string): string | null | undefined {
    const turns = this.turns();
    const group = turns.groups.get(id);
    const boxes = this.layout().boxes;
    const here = boxes.find((box) => box.id === id);
    if (!group || !here) return undefined;
    const across = (direction: 1 | -1) =>
      boxes
        .filter((box) => box.row === here.row && (box.x - here.x) * direction > 0)
        .sort((a, b) => (a.x - b.x) * direction)[0]?.id ?? null;
    switch (key) {
      case 'ArrowUp':
        return group.parent;
      case 'ArrowDown': {
        const straight = boxes.find((box) => group.children.includes(box.id) && box.x === here.x);
        return straight?.id ?? group.children[0] ?? null;
      }
      case 'ArrowLeft':
        return across(-1);
      case 'ArrowRight':
        return across(1);
      case 'Home':
        return turns.roots[0] ?? null;
      case 'End':
        return this.headBox();
      default:
        return undefined;
    }
  }

  private focusBox(id: string, block: ScrollLogicalPosition = 'nearest'): void {
    this.focusId.set(id);
    afterNextRender(
      () => {
        const element = this.boxElement(id) as SVGGElement | null;
        element?.focus({ preventScroll: true });
        element?.scrollIntoView?.({ block, inline: 'nearest' });
      },
      { injector: this.injector },
    );
  }

  private boxElement(id: string): Element | null {
    return this.host.nativeElement.querySelector(`g.node[data-node-id="${id}"]`);
  }

  /** Scrolls the tree's own scroll area (a desktop's) to HEAD, once, without moving the page. */
  private showHead(): void {
    const canvas = this.canvas()?.nativeElement;
    const id = this.headBox();
    const box = id ? this.layout().boxes.find((b) => b.id === id) : undefined;
    // Not before the HEAD path is known: until then the layout may put HEAD's branch aside.
    const ready = id !== null && this.headBoxes().has(id);
    if (this.scrolledToHead || !canvas || !box || !ready || canvas.scrollHeight <= canvas.clientHeight)
      return;
    this.scrolledToHead = true;
    canvas.scrollTop = Math.max(0, box.y - canvas.clientHeight / 2);
    canvas.scrollLeft = Math.max(0, box.x - 16);
  }
}
