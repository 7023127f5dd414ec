import { ChangeDetectionStrategy, Component, input, output } from '@angular/core';

/**
 * "‹ 2/3 ›" on a node that has siblings: step to the previous or next branch. Each is a landmark of
 * its own, so each says whose branches it steps through ("Branches of your message 'the desk'"):
 * a screen reader's list of landmarks must tell them apart.
 */
@Component({
  selector: 'app-branch-nav',
  template: `
    <nav class="branch-nav" [attr.aria-label]="label()">
      <button
        type="button"
        class="step"
        aria-label="Previous branch"
        [disabled]="disabled() || index() === 0"
        (click)="go(index() - 1)"
      >
        ‹
      </button>
      <span class="count" aria-live="polite">
        <span class="visually-hidden">Branch </span>{{ index() + 1 }}/{{ ids().length }}
      </span>
      <button
        type="button"
        class="step"
        aria-label="Next branch"
        [disabled]="disabled() || index() >= ids().length - 1"
        (click)="go(index() + 1)"
      >
        ›
      </button>
    </nav>
  `,
  styles: `
    .branch-nav {
      display: inline-flex;
      align-items: center;
      gap: var(--space-1);
      color: var(--color-muted);
      font-size: 0.8125rem;
    }
    .step {
      min-width: 2.25rem;
      min-height: 2.25rem;
      border: 1px solid var(--color-border);
      border-radius: var(--radius-pill);
      background: var(--color-surface);
      color: inherit;
      cursor: pointer;
    }
    .step:disabled {
      opacity: 0.4;
      cursor: default;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class BranchNavComponent {
  readonly ids = input.required<string[]>();
  readonly index = input.required<number>();
  readonly disabled = input(false);
  readonly label = input('Branches');
  readonly switchTo = output<string>();

  protected go(index: number): void {
    const id = this.ids()[index];
    if (id) this.switchTo.emit(id);
  }
}
