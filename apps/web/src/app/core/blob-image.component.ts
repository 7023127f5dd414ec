import { ChangeDetectionStrategy, Component, effect, inject, input, signal } from '@angular/core';

import { ApiService } from './api.service';

/**
 * A stored photo (`GET /api/blobs/:sha256`). An <img src> cannot send the Bearer token the api
 * wants, so the bytes are fetched with it and shown through an object URL, which is revoked when
 * the photo changes or the component goes. The browser's HTTP cache keeps the bytes (the api
 * marks them private and immutable), so a photo shown again is not downloaded again.
 */
@Component({
  selector: 'app-blob-image',
  template: `
    @if (url(); as src) {
      <img [src]="src" [alt]="alt()" />
    } @else if (failed()) {
      <span class="placeholder" role="img" [attr.aria-label]="alt() + ' (could not be loaded)'"
        >Photo unavailable</span
      >
    } @else {
      <span class="placeholder" role="img" [attr.aria-label]="alt() + ' (loading)'"></span>
    }
  `,
  styles: `
    :host {
      display: block;
    }
    img,
    .placeholder {
      display: flex;
      align-items: center;
      justify-content: center;
      width: 100%;
      height: 100%;
      border-radius: var(--radius);
      object-fit: cover;
    }
    .placeholder {
      background: var(--color-surface);
      color: var(--color-muted);
      font-size: 0.75rem;
      text-align: center;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class BlobImageComponent {
  private readonly api = inject(ApiService);

  readonly sha256 = input.required<string>();
  readonly alt = input('');

  protected readonly url = signal<string | null>(null);
  protected readonly failed = signal(false);

  constructor() {
    effect((onCleanup) => {
      const sha256 = this.sha256();
      let objectUrl: string | null = null;
      let live = true;
      this.url.set(null);
      this.failed.set(false);
      this.api.blob(sha256).then(
        (blob) => {
          if (!live) return;
          objectUrl = URL.createObjectURL(blob);
          this.url.set(objectUrl);
        },
        () => {
          if (live) this.failed.set(true);
        },
      );
      onCleanup(() => {
        live = false;
        if (objectUrl) URL.revokeObjectURL(objectUrl);
      });
    });
  }
}
