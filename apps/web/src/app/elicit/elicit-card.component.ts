import {
  afterRenderEffect,
  ChangeDetectionStrategy,
  Component,
  type ElementRef,
  input,
  output,
  untracked,
  viewChild,
} from '@angular/core';
import type { ElicitRequest, ElicitResponse } from '@sweatpants/domain';

import { ElicitWidgetComponent } from './elicit-widget.component';

let nextId = 0;

/**
 * The pending question: its message, its widget, and the ways out every elicit has (skip it or
 * cancel). Saying something else is the composer below the card (the chat page): one place to
 * type. A question asked again after a tangent (`resumes`) says so. Focus moves here when a new
 * question arrives.
 */
@Component({
  selector: 'app-elicit-card',
  imports: [ElicitWidgetComponent],
  template: `
    <section #card class="card elicit stack" tabindex="-1" [attr.aria-labelledby]="headingId">
      @if (request().resumes) {
        <p class="elicit__again small muted">Back to this question</p>
      }
      <h2 class="elicit__message" [id]="headingId">{{ request().message }}</h2>
      <app-elicit-widget [question]="request()" (answered)="answered.emit($event)" />
      <div class="elicit__ways-out row">
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
    .elicit__again {
      margin: 0;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ElicitCardComponent {
  readonly request = input.required<ElicitRequest>();
  readonly answered = output<ElicitResponse>();

  protected readonly headingId = `elicit-${nextId++}`;
  private readonly card = viewChild.required<ElementRef<HTMLElement>>('card');
  private focusedId: string | null = null;

  constructor() {
    // A new question takes focus once, so keyboard and screen-reader users land on it.
    afterRenderEffect(() => {
      const id = this.request().elicitId;
      untracked(() => {
        if (id === this.focusedId) return;
        this.focusedId = id;
        this.card().nativeElement.focus();
      });
    });
  }
}
