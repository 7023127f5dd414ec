import { booleanAttribute, ChangeDetectionStrategy, Component, inject, input } from '@angular/core';

import { PendingArchives } from './pending-archives';

/**
 * "Archived 'title' · Undo" while an archive waits out its undo window (Undo brings it back, and
 * the person to it if it was open), and the api's refusal if the archive then failed. A live region that is always there, so what appears in it is announced.
 * Floating at the foot of the window, or `inline` in the phone's drawer: a modal drawer hides the
 * rest of the page from screen readers and keeps the keyboard in, so Undo has to be inside it.
 */
@Component({
  selector: 'app-undo-toast',
  template: `
    <div class="toasts" role="status">
      @if (archives.latest(); as c) {
        <div class="toast">
          <span class="toast__text">Archived '{{ c.title || 'New conversation' }}'</span>
          <button type="button" class="toast__button" (click)="archives.undo(c.id)">Undo</button>
        </div>
      }
    </div>
    @if (archives.error(); as e) {
      <div class="toast toast--error" role="alert">
        <span class="toast__text">{{ e }}</span>
        <button type="button" class="toast__button" (click)="archives.error.set(null)">Dismiss</button>
      </div>
    }
  `,
  styles: `
    :host {
      position: fixed;
      bottom: var(--space-4);
      left: 50%;
      z-index: 900;
      display: flex;
      flex-direction: column;
      gap: var(--space-2);
      width: max-content;
      max-width: calc(100vw - 2 * var(--space-4));
      transform: translateX(-50%);
      pointer-events: none;
    }
    :host(.inline) {
      position: static;
      width: auto;
      max-width: none;
      padding: 0 var(--space-2) var(--space-2);
      transform: none;
    }
    .toast {
      display: flex;
      align-items: center;
      gap: var(--space-3);
      padding: var(--space-1) var(--space-1) var(--space-1) var(--space-4);
      border-radius: var(--radius);
      background: var(--color-text);
      color: var(--color-bg);
      box-shadow: 0 8px 24px rgb(0 0 0 / 0.18);
      pointer-events: auto;
    }
    .toast--error {
      border: 1px solid var(--color-danger-border);
      background: var(--color-danger-bg);
      color: var(--color-danger-text);
    }
    .toast__text {
      overflow-wrap: anywhere;
    }
    .toast__button {
      min-width: 2.75rem;
      min-height: 2.75rem;
      padding: 0 var(--space-3);
      border: 0;
      border-radius: calc(var(--radius) - 2px);
      background: transparent;
      color: inherit;
      font-weight: 600;
      text-decoration: underline;
      cursor: pointer;
    }
    .toast__button:focus-visible {
      outline-color: currentColor;
      outline-offset: -3px;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { '[class.inline]': 'inline()' },
})
export class UndoToastComponent {
  readonly inline = input(false, { transform: booleanAttribute });
  protected readonly archives = inject(PendingArchives);
}
