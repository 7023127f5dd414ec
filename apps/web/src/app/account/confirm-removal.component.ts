import { ChangeDetectionStrategy, Component, input, output } from '@angular/core';

/**
 * The question asked in place before something of the account's is taken away ("Revoke
 * “laptop”?", "Remove “this laptop”?"): the action, in red, and Keep it, which the caller puts
 * focus on (the harmless answer). Escape keeps it too.
 */
@Component({
  selector: 'app-confirm-removal',
  template: `
    <div
      class="confirm"
      role="alertdialog"
      [attr.aria-labelledby]="'question-' + id()"
      (keydown.escape)="kept.emit()"
    >
      <p class="small" [id]="'question-' + id()">{{ question() }}</p>
      <div class="row">
        <button
          type="button"
          class="button button--danger button--small"
          [disabled]="busy()"
          (click)="confirmed.emit()"
        >
          {{ action() }}
        </button>
        <button type="button" class="button button--small" [id]="'keep-' + id()" (click)="kept.emit()">
          Keep it
        </button>
      </div>
    </div>
  `,
  styles: `
    :host {
      flex-basis: 100%;
    }
    p {
      margin: 0 0 var(--space-2);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ConfirmRemovalComponent {
  /** the thing's id: names the question, and Keep it (`keep-<id>`) for the caller to focus */
  readonly id = input.required<string>();
  readonly question = input.required<string>();
  /** the red button's word: Revoke, Remove */
  readonly action = input.required<string>();
  readonly busy = input(false);
  readonly confirmed = output();
  readonly kept = output();
}
