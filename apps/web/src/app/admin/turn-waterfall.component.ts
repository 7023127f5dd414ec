import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { TURN_SPAN_KINDS, type TurnSpan, type TurnWaterfall } from '@sweatpants/domain';

import { durationWords, SPAN_KIND_WORDS, spanFigures } from './turn-words';

/** The thinnest bar drawn, in percent of the turn, so an instant write is still seen. */
const MIN_BAR = 0.6;

/** A bar's place on the turn's axis, in percent of the turn's length. */
interface Bar {
  span: TurnSpan;
  kind: string;
  figures: string;
  left: number;
  width: number;
}

/**
 * One turn as a waterfall: a row per model call, tool, wait for the person and write of the tree,
 * each a bar on the turn's own time axis, scaled to the width there is (a phone's too). Each row
 * says in words what the bar draws, so the bars themselves are hidden from screen readers.
 */
@Component({
  selector: 'app-turn-waterfall',
  template: `
    <ul class="legend small muted" aria-label="What the bars are">
      @for (kind of kinds; track kind) {
        <li><span [class]="'swatch bar--' + kind"></span>{{ kindWords[kind] }}</li>
      }
    </ul>
    <div class="axis small muted" aria-hidden="true">
      <span>0</span><span>{{ half() }}</span
      ><span>{{ whole() }}</span>
    </div>
    <ol class="rows" [attr.aria-label]="'Turn ' + turn().number + ', where its time went'">
      @for (bar of bars(); track $index) {
        <li class="row-item">
          <div class="what">
            <span class="kind">{{ bar.kind }}</span>
            <span class="label" [title]="bar.span.label">{{ bar.span.label }}</span>
            <span class="figures small muted">{{ bar.figures }}</span>
          </div>
          <div class="track" aria-hidden="true">
            <span
              [class]="'bar bar--' + bar.span.kind"
              [class.bar--estimated]="bar.span.estimated"
              [style.left.%]="bar.left"
              [style.width.%]="bar.width"
            ></span>
          </div>
        </li>
      } @empty {
        <li class="small muted">Nothing was recorded in this turn but the person’s words.</li>
      }
    </ol>
  `,
  styles: `
    :host {
      display: block;
      --bar-model: var(--color-accent);
      --bar-tool: var(--color-focus);
      --bar-wait: var(--color-warn-text);
      --bar-write: var(--color-muted);
    }
    .legend {
      display: flex;
      flex-wrap: wrap;
      gap: var(--space-1) var(--space-3);
      margin: 0 0 var(--space-2);
      padding: 0;
      list-style: none;
    }
    .legend li {
      display: flex;
      align-items: center;
      gap: var(--space-1);
    }
    .swatch {
      display: inline-block;
      width: 0.75rem;
      height: 0.75rem;
      border-radius: 2px;
    }
    .axis,
    .row-item {
      display: grid;
      grid-template-columns: minmax(0, 1fr);
      gap: var(--space-1);
    }
    .axis {
      grid-template-columns: repeat(3, 1fr);
      border-bottom: 1px solid var(--color-border);
    }
    .axis span:nth-child(2) {
      text-align: center;
    }
    .axis span:last-child {
      text-align: right;
    }
    .rows {
      margin: 0;
      padding: 0;
      list-style: none;
    }
    .row-item {
      padding: var(--space-2) 0;
      border-bottom: 1px solid var(--color-border);
    }
    .what {
      display: flex;
      flex-wrap: wrap;
      align-items: baseline;
      gap: 0 var(--space-2);
      min-width: 0;
    }
    .kind {
      font-weight: 600;
    }
    .label {
      overflow-wrap: anywhere;
    }
    .figures {
      flex-basis: 100%;
    }
    .track {
      position: relative;
      height: 0.9rem;
      border-radius: 2px;
      background: var(--color-hover);
    }
    .bar {
      position: absolute;
      top: 0;
      bottom: 0;
      border-radius: 2px;
    }
    .bar--model {
      background: var(--bar-model);
    }
    .bar--tool {
      background: var(--bar-tool);
    }
    .bar--wait {
      background: var(--bar-wait);
    }
    .bar--write {
      background: var(--bar-write);
    }
    .bar--estimated {
      opacity: 0.55;
    }
    /* Beside each other where there is room: the words on the left, the bars on one axis. */
    @media (min-width: 48rem) {
      .axis,
      .row-item {
        grid-template-columns: minmax(14rem, 2fr) 3fr;
        align-items: center;
        column-gap: var(--space-4);
      }
      .axis::before {
        content: '';
      }
      .axis {
        grid-template-columns: minmax(14rem, 2fr) 1fr 1fr 1fr;
      }
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class TurnWaterfallComponent {
  readonly turn = input.required<TurnWaterfall>();

  protected readonly kinds = TURN_SPAN_KINDS;
  protected readonly kindWords = SPAN_KIND_WORDS;
  protected readonly half = computed(() => durationWords(this.turn().durationMs / 2));
  protected readonly whole = computed(() => durationWords(this.turn().durationMs));
  protected readonly bars = computed((): Bar[] => {
    const total = Math.max(1, this.turn().durationMs);
    return this.turn().spans.map((span) => {
      const left = Math.min(100 - MIN_BAR, (span.startMs / total) * 100);
      return {
        span,
        kind: SPAN_KIND_WORDS[span.kind],
        figures: spanFigures(span),
        left,
        width: Math.min(100 - left, Math.max(MIN_BAR, (span.durationMs / total) * 100)),
      };
    });
  });
}
