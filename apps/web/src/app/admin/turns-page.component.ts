import { ChangeDetectionStrategy, Component, computed, effect, inject, signal } from '@angular/core';
import type { TurnWaterfall, TurnWaterfalls } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { ConversationStore } from '../conversation/conversation-store.service';
import { TurnWaterfallComponent } from './turn-waterfall.component';
import { costWords, durationWords, turnFigures } from './turn-words';

/** How the turns are listed: as they happened, or the ones that stand out first. */
type Order = 'time' | 'slowest' | 'costliest';

const ORDERS: readonly { order: Order; words: string }[] = [
  { order: 'time', words: 'In order' },
  { order: 'slowest', words: 'Slowest first' },
  { order: 'costliest', words: 'Costliest first' },
];

/**
 * The admin's Turns tab: each turn of the HEAD path, opened as a waterfall of where its time and
 * money went. The slowest and the costliest turn open with one click; the list sorts by either.
 */
@Component({
  selector: 'app-turns-page',
  imports: [TurnWaterfallComponent],
  template: `
    @if (error(); as e) {
      <p class="error" role="alert">{{ e }}</p>
    }
    @if (loaded(); as l) {
      @if (l.turns.length === 0) {
        <p class="muted">No turns yet: nobody has said anything to the agent.</p>
      } @else {
        <div class="standouts">
          @if (slowestTurn(); as t) {
            <button type="button" class="button button--small" (click)="show(t.number, 'slowest')">
              Slowest: turn {{ t.number }} · {{ duration(t.durationMs) }}
            </button>
          }
          @if (costliestTurn(); as t) {
            <button type="button" class="button button--small" (click)="show(t.number, 'costliest')">
              Costliest: turn {{ t.number }} · {{ cost(t) }}
            </button>
          }
        </div>
        <div class="orders" role="group" aria-label="Order of the turns">
          @for (o of orders; track o.order) {
            <button
              type="button"
              class="button button--small button--quiet"
              [attr.aria-pressed]="order() === o.order"
              (click)="order.set(o.order)"
            >
              {{ o.words }}
            </button>
          }
        </div>
        <ol class="turns" aria-label="Turns">
          @for (t of ordered(); track t.number) {
            <li class="card turn" [class.turn--open]="opened() === t.number">
              <button
                type="button"
                class="turn__head"
                [attr.aria-expanded]="opened() === t.number"
                [attr.aria-controls]="'turn-' + t.number"
                (click)="toggle(t.number)"
              >
                <span class="turn__number">Turn {{ t.number }}</span>
                <span class="turn__opener" [title]="t.opener">{{ t.opener }}</span>
                <span class="small muted">{{ figures(t) }}</span>
              </button>
              @if (opened() === t.number) {
                <app-turn-waterfall class="turn__waterfall" [attr.id]="'turn-' + t.number" [turn]="t" />
              }
            </li>
          }
        </ol>
      }
    } @else if (!error()) {
      <p class="muted" role="status">Reading the turns…</p>
    }
  `,
  styles: `
    .standouts,
    .orders {
      display: flex;
      flex-wrap: wrap;
      gap: var(--space-2);
      margin-bottom: var(--space-3);
    }
    .orders [aria-pressed='true'] {
      border-color: var(--color-accent);
      box-shadow: inset 0 0 0 1px var(--color-accent);
    }
    .turns {
      display: flex;
      flex-direction: column;
      gap: var(--space-2);
      margin: 0;
      padding: 0;
      list-style: none;
    }
    .turn {
      padding: 0;
    }
    .turn__head {
      display: flex;
      flex-direction: column;
      gap: var(--space-1);
      width: 100%;
      padding: var(--space-3) var(--space-4);
      border: 0;
      background: none;
      color: inherit;
      font: inherit;
      text-align: left;
      cursor: pointer;
    }
    .turn__head:hover {
      background: var(--color-hover);
    }
    .turn__number {
      font-weight: 600;
    }
    .turn__opener {
      overflow-wrap: anywhere;
    }
    .turn__waterfall {
      padding: 0 var(--space-4) var(--space-3);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class TurnsPageComponent {
  private readonly api = inject(ApiService);
  private readonly store = inject(ConversationStore);

  protected readonly orders = ORDERS;
  protected readonly order = signal<Order>('time');
  protected readonly opened = signal<number | null>(null);
  protected readonly loaded = signal<TurnWaterfalls | null>(null);
  protected readonly error = signal<string | null>(null);

  private readonly byNumber = computed(() => new Map(this.loaded()?.turns.map((t) => [t.number, t]) ?? []));
  protected readonly slowestTurn = computed(() => this.named(this.loaded()?.slowest[0]));
  protected readonly costliestTurn = computed(() => this.named(this.loaded()?.costliest[0]));
  /** The turns in the chosen order: as they happened, or ranked as the api ranked them. */
  protected readonly ordered = computed((): TurnWaterfall[] => {
    const all = this.loaded();
    if (!all) return [];
    const order = this.order();
    if (order === 'time') return all.turns;
    const ranked = order === 'slowest' ? all.slowest : all.costliest;
    return ranked.flatMap((n) => this.named(n) ?? []);
  });

  protected readonly duration = durationWords;
  protected readonly cost = costWords;
  protected readonly figures = turnFigures;

  constructor() {
    effect((onCleanup) => {
      const id = this.store.id();
      let live = true;
      onCleanup(() => {
        live = false;
      });
      if (!id) return;
      this.api.adminTurns(id).then(
        (turns) => {
          if (live) this.loaded.set(turns);
        },
        (error: unknown) => {
          if (live) this.error.set(describeError(error));
        },
      );
    });
  }

  private named(number: number | undefined): TurnWaterfall | null {
    return number === undefined ? null : (this.byNumber().get(number) ?? null);
  }

  protected toggle(number: number): void {
    this.opened.update((open) => (open === number ? null : number));
  }

  /** A standout turn: opened, listed first (the list sorted by what it stands out for), scrolled to. */
  protected show(number: number, order: Order): void {
    this.order.set(order);
    this.opened.set(number);
    requestAnimationFrame(() =>
      document.getElementById(`turn-${number}`)?.scrollIntoView({ block: 'nearest', behavior: 'smooth' }),
    );
  }
}
