import {
  afterRenderEffect,
  ChangeDetectionStrategy,
  Component,
  type ElementRef,
  input,
  output,
  signal,
  untracked,
  viewChild,
} from '@angular/core';
import type { ElicitRequest, ElicitResponse } from '@sweatpants/domain';

import { ElicitWidgetComponent } from './elicit-widget.component';

let nextId = 0;

/**
 * The pending question: its message, its widget, and the ways out every elicit has (skip it,
 * cancel, or say something else). Focus moves here when a new question arrives.
 */
@Component({
  selector: 'app-elicit-card',
  imports: [ElicitWidgetComponent],
  template: `
    <section #card class="card elicit stack" tabindex="-1" [attr.aria-labelledby]="headingId">
      <h2 class="elicit__message" [id]="headingId">{{ request().message }}</h2>
      <app-elicit-widget [question]="request()" (answered)="answered.emit($event)" />
      <div class="elicit__ways-out">
        @if (offScript()) {
          <form class="row" (submit)="$event.preventDefault(); sayOther()">
            <label class="visually-hidden" [for]="otherId">Something else</label>
            <input
              #other
              class="input other"
              [id]="otherId"
              placeholder="Say something else…"
              [value]="otherText()"
              (input)="otherText.set(other.value)"
            />
            <button type="submit" class="button button--small" [disabled]="!otherText().trim()">Send</button>
            <button type="button" class="button button--quiet button--small" (click)="offScript.set(false)">
              Back
            </button>
          </form>
        } @else {
          <div class="row">
            <button type="button" class="button button--quiet button--small" (click)="openOther()">
              Something else…
            </button>
            <button
              type="button"
              class="button button--quiet button--small"
              (click)="answered.emit({ action: 'decline' })"
            >
              Skip this
            </button>
            <button
              type="button"
              class="button button--quiet button--small"
              (click)="answered.emit({ action: 'cancel' })"
            >
              Cancel
            </button>
          </div>
        }
      </div>
    </section>
  `,
  styles: `
    .elicit {
      border-color: var(--color-accent);
    }
    .elicit:focus {
      outline: none;
    }
    .elicit:focus-visible {
      outline: 3px solid var(--color-focus);
    }
    .elicit__message {
      font-size: 1.05rem;
      font-weight: 600;
    }
    .elicit__ways-out {
      padding-top: var(--space-2);
      border-top: 1px solid var(--color-border);
    }
    .other {
      flex: 1;
      min-width: 10rem;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ElicitCardComponent {
  readonly request = input.required<ElicitRequest>();
  readonly answered = output<ElicitResponse>();

  protected readonly headingId = `elicit-${nextId}`;
  protected readonly otherId = `elicit-other-${nextId++}`;
  protected readonly offScript = signal(false);
  protected readonly otherText = signal('');
  private readonly card = viewChild.required<ElementRef<HTMLElement>>('card');
  private readonly otherInput = viewChild<ElementRef<HTMLInputElement>>('other');
  private focusedId: string | null = null;

  constructor() {
    // A new question takes focus once, so keyboard and screen-reader users land on it.
    afterRenderEffect(() => {
      const id = this.request().elicitId;
      untracked(() => {
        if (id === this.focusedId) return;
        this.focusedId = id;
        this.offScript.set(false);
        this.otherText.set('');
        this.card().nativeElement.focus();
      });
    });
  }

  protected openOther(): void {
    this.offScript.set(true);
    setTimeout(() => this.otherInput()?.nativeElement.focus());
  }

  protected sayOther(): void {
    const text = this.otherText().trim();
    if (text) this.answered.emit({ action: 'other', content: { text } });
  }
}
