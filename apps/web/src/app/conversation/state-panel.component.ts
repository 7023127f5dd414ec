import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import type { StateResponse } from '@sweatpants/domain';

import { sessionStateView } from './session-state';

/** The session's state at HEAD beside the chat: phase, the three piles, what is known. */
@Component({
  selector: 'app-state-panel',
  template: `
    <section class="card stack" aria-labelledby="state-heading">
      <h2 id="state-heading">Session</h2>
      @if (view(); as v) {
        @if (v.headline.length > 0) {
          <dl class="facts">
            @for (fact of v.headline; track fact.label) {
              <div>
                <dt>{{ fact.label }}</dt>
                <dd>{{ fact.value }}</dd>
              </div>
            }
          </dl>
        }
        @for (pile of v.piles; track pile.label) {
          <div class="pile">
            <h3>
              {{ pile.label }} <span class="pill">{{ pile.items.length }}</span>
            </h3>
            @if (pile.items.length > 0) {
              <ul>
                @for (item of pile.items; track $index) {
                  <li>{{ item }}</li>
                }
              </ul>
            } @else {
              <p class="muted small">Nothing yet</p>
            }
          </div>
        }
        @for (list of v.lists; track list.label) {
          <div class="pile">
            <h3>{{ list.label }}</h3>
            <ul>
              @for (item of list.items; track $index) {
                <li>{{ item }}</li>
              }
            </ul>
          </div>
        }
        @if (v.headline.length === 0 && v.piles.length === 0 && v.lists.length === 0) {
          <p class="muted small">Nothing to keep track of yet.</p>
        }
      } @else {
        <p class="muted small">No state yet.</p>
      }
    </section>
  `,
  styles: `
    .facts {
      display: grid;
      gap: var(--space-2);
      margin: 0;
    }
    .facts div {
      display: flex;
      justify-content: space-between;
      gap: var(--space-3);
    }
    dt {
      color: var(--color-muted);
    }
    dd {
      margin: 0;
      font-weight: 500;
      text-align: right;
    }
    .pile h3 {
      margin-bottom: var(--space-1);
      font-size: 0.9rem;
    }
    .pile ul {
      margin: 0;
      padding-left: var(--space-5);
    }
    .pile p {
      margin: 0;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class StatePanelComponent {
  readonly state = input<StateResponse | null>(null);
  protected readonly view = computed(() => {
    const state = this.state();
    return state ? sessionStateView(state) : null;
  });
}
