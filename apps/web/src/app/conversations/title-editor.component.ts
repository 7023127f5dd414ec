import {
  afterNextRender,
  ChangeDetectionStrategy,
  Component,
  type ElementRef,
  inject,
  input,
  type OnInit,
  output,
  signal,
  viewChild,
} from '@angular/core';
import { type Conversation, MAX_TITLE_LENGTH } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ConversationListService } from './conversation-list.service';

let nextId = 0;

/**
 * A conversation's title, edited in place: Enter (or Save) renames, Escape (or Cancel) leaves it
 * as it was. An empty title is refused in words, and so is whatever the api refuses.
 */
@Component({
  selector: 'app-title-editor',
  template: `
    <form class="editor" (submit)="$event.preventDefault(); save()">
      <label class="visually-hidden" [for]="inputId">New title</label>
      <input
        #box
        class="input editor__input"
        autocomplete="off"
        enterkeyhint="done"
        [id]="inputId"
        [maxLength]="maxLength"
        [value]="draft()"
        [attr.aria-invalid]="problem() ? true : null"
        [attr.aria-describedby]="problem() ? errorId : null"
        (input)="draft.set(box.value); problem.set(null)"
        (keydown.escape)="cancel($event)"
      />
      <div class="editor__buttons">
        <button type="submit" class="button button--primary button--small" [disabled]="busy()">Save</button>
        <button type="button" class="button button--quiet button--small" (click)="cancel()">Cancel</button>
      </div>
      @if (problem(); as p) {
        <p class="error small editor__error" role="alert" [id]="errorId">{{ p }}</p>
      }
    </form>
  `,
  styles: `
    .editor {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: var(--space-2);
    }
    .editor__input {
      flex: 1 1 12rem;
      min-width: 0;
      font: inherit;
    }
    .editor__buttons {
      display: flex;
      gap: var(--space-1);
    }
    .editor__error {
      flex-basis: 100%;
      padding: var(--space-2) var(--space-3);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class TitleEditorComponent implements OnInit {
  private readonly list = inject(ConversationListService);
  readonly conversation = input.required<Conversation>();
  /** The renamed conversation, or null when the edit was cancelled. */
  readonly done = output<Conversation | null>();

  protected readonly inputId = `title-editor-${nextId}`;
  protected readonly errorId = `title-editor-error-${nextId++}`;
  protected readonly maxLength = MAX_TITLE_LENGTH;
  protected readonly draft = signal('');
  protected readonly busy = signal(false);
  protected readonly problem = signal<string | null>(null);
  private readonly box = viewChild.required<ElementRef<HTMLInputElement>>('box');

  constructor() {
    afterNextRender(() => {
      const box = this.box().nativeElement;
      box.focus();
      box.select();
    });
  }

  ngOnInit(): void {
    this.draft.set(this.conversation().title);
  }

  protected async save(): Promise<void> {
    if (this.busy()) return;
    const title = this.draft().trim();
    if (!title) {
      this.problem.set('Enter a title, or press Escape to keep the old one.');
      this.box().nativeElement.focus();
      return;
    }
    if (title === this.conversation().title) {
      this.done.emit(null);
      return;
    }
    this.busy.set(true);
    this.problem.set(null);
    try {
      this.done.emit(await this.list.rename(this.conversation().id, title));
    } catch (error: unknown) {
      this.problem.set(describeError(error));
      this.box().nativeElement.focus();
    } finally {
      this.busy.set(false);
    }
  }

  protected cancel(event?: Event): void {
    // Escape here ends the edit only, not the drawer around it.
    event?.stopPropagation();
    event?.preventDefault();
    this.done.emit(null);
  }
}
