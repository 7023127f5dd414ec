import { DatePipe } from '@angular/common';
import {
  ChangeDetectionStrategy,
  Component,
  computed,
  ElementRef,
  input,
  output,
  signal,
  viewChild,
} from '@angular/core';

import type { TreeNode } from '@sweatpants/domain';

import { type BoxWords, foldedStepWords } from './group-words';
import type { TurnGroup } from './turn-groups';

let nextId = 0;

/**
 * One box of the tree, inspected: the message in words, who said it and when, where it stands
 * (HEAD, the HEAD path, another branch), the steps folded into it, and the moves the tree offers.
 * The raw nodes only behind "Show raw".
 */
@Component({
  selector: 'app-tree-inspector',
  imports: [DatePipe],
  template: `
    @let g = group();
    @let w = words();
    <section
      class="inspector stack"
      [attr.role]="popup() ? 'dialog' : null"
      [attr.aria-labelledby]="titleId"
      (keydown.escape)="closed.emit()"
    >
      <div class="inspector__head">
        <h2 #title [id]="titleId" tabindex="-1">{{ w.title }}</h2>
        <button
          type="button"
          class="button button--quiet button--small"
          aria-label="Close the inspector"
          (click)="closed.emit()"
        >
          ✕
        </button>
      </div>
      <p class="small muted">
        {{ w.who }} ·
        <time [attr.datetime]="when().createdAt">{{ when().createdAt | date: 'medium' }}</time>
      </p>
      <p class="small where">{{ where() }}</p>
      @if (w.text) {
        <p class="text">{{ w.text }}</p>
      }
      @if (w.answer !== null) {
        <p class="answer"><span aria-hidden="true">↳ </span>{{ w.answer }}</p>
      }
      @if (g.children.length > 1) {
        <p class="small muted">The conversation branches here: {{ g.children.length }} ways on.</p>
      }
      @if (steps().length > 0) {
        <details class="steps" open>
          <summary>
            {{ steps().length }} {{ steps().length === 1 ? 'step' : 'steps' }} folded into this box
          </summary>
          <!-- It may scroll on its own: focusable, so a keyboard can scroll it too. -->
          <ol tabindex="0" aria-label="Steps folded into this box">
            @for (step of steps(); track $index) {
              <li>
                <span>{{ step.title }}</span>
                @if (step.detail) {
                  <span class="small muted">{{ step.detail }}</span>
                }
              </li>
            }
          </ol>
        </details>
      }
      @if (attempt()) {
        <p class="small muted">
          A try the agent made on its own: the conversation goes on from the chat, not from inside it.
        </p>
      } @else if (!readonly() && (!isHead() || branchTip())) {
        <div class="row">
          @if (!isHead()) {
            <button
              type="button"
              class="button button--primary button--small"
              (click)="moveHead.emit(last().id)"
            >
              Continue from here
            </button>
          }
          @if (branchTip(); as tip) {
            <button type="button" class="button button--small" (click)="moveHead.emit(tip)">
              Switch to this branch
            </button>
          }
        </div>
      }
      <details class="raw" (toggle)="rawOpen.set(raw.open)" #raw>
        <summary class="small">Show raw</summary>
        @if (rawOpen()) {
          <pre tabindex="0" aria-label="The raw nodes of this box">{{ rawText() }}</pre>
        }
      </details>
    </section>
  `,
  styles: `
    :host {
      display: block;
    }
    :host(.popup) {
      width: min(24rem, calc(100vw - 1rem));
      max-height: min(70vh, 34rem);
      overflow: auto;
      padding: var(--space-4);
      box-shadow: 0 8px 28px rgb(0 0 0 / 0.22);
    }
    .inspector__head {
      display: flex;
      align-items: flex-start;
      justify-content: space-between;
      gap: var(--space-2);
    }
    h2 {
      margin: 0;
      font-size: 1.05rem;
    }
    p {
      margin: 0;
    }
    .where {
      color: var(--color-accent);
      font-weight: 500;
    }
    .text {
      max-height: 14rem;
      overflow: auto;
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    .answer {
      font-weight: 500;
    }
    .steps ol {
      display: flex;
      flex-direction: column;
      gap: var(--space-1);
      max-height: 16rem;
      overflow: auto;
      margin: var(--space-2) 0 0;
      padding-left: var(--space-5);
    }
    .steps li span {
      display: block;
      overflow-wrap: anywhere;
    }
    .raw pre {
      max-height: 16rem;
      overflow: auto;
      margin: var(--space-2) 0 0;
      font-size: 0.75rem;
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class TreeInspectorComponent {
  readonly group = input.required<TurnGroup>();
  readonly words = input.required<BoxWords>();
  /** whether the box holds HEAD */
  readonly isHead = input(false);
  readonly onHeadPath = input(false);
  /** where "Switch to this branch" goes: the latest tip below this box, when it is elsewhere */
  readonly branchTip = input<string | null>(null);
  readonly readonly = input(false);
  /** inside a subagent's attempt: shown, and nothing goes on from it */
  readonly attempt = input(false);
  /** opened next to the box it inspects (a phone), over the tree */
  readonly popup = input(false);
  readonly moveHead = output<string>();
  readonly closed = output<void>();

  protected readonly titleId = `tree-inspector-${nextId++}`;
  private readonly title = viewChild.required<ElementRef<HTMLElement>>('title');
  protected readonly rawOpen = signal(false);
  protected readonly last = computed(() => this.group().nodes.at(-1) ?? this.when());
  protected readonly when = computed(() => this.group().message ?? (this.group().nodes[0] as TreeNode));
  protected readonly steps = computed(() => this.group().steps.map(foldedStepWords));
  protected readonly where = computed(() =>
    this.isHead()
      ? 'You are here: the chat ends with this box.'
      : this.onHeadPath()
        ? 'In the chat now: the chat shows this.'
        : 'On another branch: the chat does not show this now.',
  );
  protected readonly rawText = computed(() =>
    JSON.stringify(
      this.group().nodes.map(({ id, kind, authorId, createdAt, payload }) => ({
        id,
        kind,
        authorId,
        createdAt,
        payload,
      })),
      null,
      2,
    ),
  );

  /** Moves focus to the heading, for a panel that opened where the user tapped. */
  focus(): void {
    this.title().nativeElement.focus({ preventScroll: true });
  }
}
