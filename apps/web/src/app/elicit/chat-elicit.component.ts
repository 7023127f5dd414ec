import {
  ChangeDetectionStrategy,
  Component,
  computed,
  type ElementRef,
  input,
  output,
  signal,
  viewChild,
} from '@angular/core';
import { MAX_MESSAGE_LENGTH, type ElicitAnswerRequest } from '@sweatpants/domain';

import { type ElicitQuestion, payloadOf } from './elicit-question';
import { type PhotoDraft, readPhoto } from './photo-reader';

let nextId = 0;

/**
 * The composer: text and photos (the camera on a phone), answered as the `chat` elicit's content.
 * Enter sends, Shift+Enter starts a new line.
 */
@Component({
  selector: 'app-chat-elicit',
  template: `
    <form class="composer" (submit)="$event.preventDefault(); submit()">
      @if (photos().length > 0) {
        <ul class="thumbs" aria-label="Photos to send">
          @for (draft of photos(); track draft.previewUrl; let i = $index) {
            <li>
              <img [src]="draft.previewUrl" [alt]="'Photo ' + (i + 1) + ': ' + draft.name" />
              <button
                type="button"
                class="button button--quiet button--small"
                [attr.aria-label]="'Remove photo ' + (i + 1)"
                (click)="removePhoto(i)"
              >
                ✕
              </button>
            </li>
          }
        </ul>
      }
      @if (photoError(); as problem) {
        <p class="error small" role="alert">{{ problem }}</p>
      }
      <div class="composer__row">
        @if (takesPhotos()) {
          <label class="button photo-button" [for]="fileId" title="Add a photo">
            <svg
              aria-hidden="true"
              width="22"
              height="22"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              stroke-width="1.8"
            >
              <path d="M4 8h3l2-3h6l2 3h3v11H4z" stroke-linejoin="round" />
              <circle cx="12" cy="13" r="3.5" />
            </svg>
            <span class="visually-hidden">Add a photo</span>
          </label>
          <input
            #file
            class="visually-hidden"
            type="file"
            accept="image/*"
            capture="environment"
            multiple
            [id]="fileId"
            [disabled]="disabled()"
            (change)="addPhotos(file)"
          />
        }
        <label class="visually-hidden" [for]="textId">Message</label>
        <textarea
          #box
          class="input composer__text"
          rows="1"
          [id]="textId"
          [placeholder]="placeholder()"
          [attr.aria-describedby]="nearLimit() ? countId : null"
          [value]="text()"
          [disabled]="disabled()"
          (input)="text.set(box.value)"
          (keydown.enter)="enter($event)"
          (keydown.control.enter)="submit()"
          (keydown.meta.enter)="submit()"
        ></textarea>
        <button type="submit" class="button button--primary" [disabled]="!canSend()">Send</button>
      </div>
      @if (nearLimit()) {
        <p class="small" [class.error]="tooLong()" [id]="countId" aria-live="polite">
          {{ length() }} / {{ limit }} characters{{ tooLong() ? ': shorten it to send' : '' }}
        </p>
      }
    </form>
  `,
  styles: `
    .composer {
      display: flex;
      flex-direction: column;
      gap: var(--space-2);
    }
    .composer__row {
      display: flex;
      align-items: flex-end;
      gap: var(--space-2);
    }
    .composer__text {
      flex: 1;
      min-height: 2.75rem;
      max-height: 10rem;
    }
    /* One line shows: a placeholder that does not fit is cut there, not wrapped out of sight. */
    .composer__text::placeholder {
      overflow: hidden;
      white-space: nowrap;
      text-overflow: ellipsis;
    }
    .photo-button {
      flex: none;
    }
    .thumbs {
      display: flex;
      flex-wrap: wrap;
      gap: var(--space-2);
      margin: 0;
      padding: 0;
      list-style: none;
    }
    .thumbs li {
      display: flex;
      align-items: flex-start;
    }
    .thumbs img {
      width: 4rem;
      height: 4rem;
      object-fit: cover;
      border-radius: var(--radius);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ChatElicitComponent {
  readonly question = input.required<ElicitQuestion>();
  readonly disabled = input(false);
  /** Whether the agent looks at photos: the camera is offered only to one that does. */
  readonly takesPhotos = input(true);
  readonly answered = output<ElicitAnswerRequest<'chat'>>();

  protected readonly fileId = `chat-photo-${nextId}`;
  protected readonly countId = `chat-count-${nextId}`;
  protected readonly textId = `chat-text-${nextId++}`;
  protected readonly text = signal('');
  protected readonly photos = signal<PhotoDraft[]>([]);
  protected readonly photoError = signal<string | null>(null);
  private readonly box = viewChild<ElementRef<HTMLTextAreaElement>>('box');

  protected readonly placeholder = computed(
    () => payloadOf('chat', this.question())?.placeholder ?? 'Write a message',
  );
  /** The api's own limit (libs/domain), shown once a message comes near it. */
  protected readonly limit = MAX_MESSAGE_LENGTH;
  protected readonly length = computed(() => this.text().trim().length);
  protected readonly nearLimit = computed(() => this.length() > MAX_MESSAGE_LENGTH * 0.9);
  protected readonly tooLong = computed(() => this.length() > MAX_MESSAGE_LENGTH);
  /** Words, a photo, or both: a photo alone is a message. */
  protected readonly canSend = computed(
    () => !this.disabled() && !this.tooLong() && (this.length() > 0 || this.photos().length > 0),
  );

  focus(): void {
    this.box()?.nativeElement.focus();
  }

  protected async addPhotos(input: HTMLInputElement): Promise<void> {
    const files = Array.from(input.files ?? []);
    input.value = '';
    this.photoError.set(null);
    for (const file of files) {
      try {
        const draft = await readPhoto(file);
        this.photos.update((list) => [...list, draft]);
      } catch (error: unknown) {
        this.photoError.set(error instanceof Error ? error.message : 'Could not read that photo.');
      }
    }
  }

  protected removePhoto(index: number): void {
    this.photos.update((list) => list.filter((_, i) => i !== index));
  }

  protected submit(): void {
    if (!this.canSend()) return;
    const text = this.text().trim();
    const photos = this.photos().map((draft) => draft.photo);
    this.answered.emit({ action: 'accept', content: photos.length > 0 ? { text, photos } : { text } });
  }

  /** Enter sends (Shift+Enter is a new line); not while an input method is composing a word. */
  protected enter(event: Event): void {
    if ((event as KeyboardEvent).isComposing) return;
    event.preventDefault();
    this.submit();
  }

  /**
   * Puts words back into an empty box (a queued message the person withdrew), to edit or send
   * again; a box already holding words or photos keeps them. Says whether the words went in.
   */
  restore(text: string): boolean {
    if (this.text().trim() || this.photos().length > 0) return false;
    this.text.set(text);
    return true;
  }

  /** Called once the message was delivered, so a failed send keeps what the user wrote. */
  clear(): void {
    this.text.set('');
    this.photos.set([]);
  }
}
