import { ChangeDetectionStrategy, Component, computed, inject, input, output, signal } from '@angular/core';
import type { ElicitAnswerRequest } from '@sweatpants/domain';

import { ElicitProgress } from './elicit-progress';
import { type ElicitQuestion, payloadOf } from './elicit-question';

/** GeolocationPositionError.PERMISSION_DENIED; jsdom and some browsers lack the constant. */
const PERMISSION_DENIED = 1;

/** The device's position, asked only when the user taps; a refusal answers `denied`. */
@Component({
  selector: 'app-location-elicit',
  template: `
    <div class="stack">
      <div class="row">
        <button type="button" class="button button--primary" [disabled]="locating()" (click)="locate()">
          {{ locating() ? 'Finding you…' : 'Share my location' }}
        </button>
        <span class="muted small">{{ precise() ? 'Precise location' : 'Approximate location' }}</span>
      </div>
      @if (problem(); as p) {
        <p class="error small" role="alert">{{ p }}</p>
      }
    </div>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class LocationElicitComponent {
  readonly question = input.required<ElicitQuestion>();
  readonly answered = output<ElicitAnswerRequest<'location'>>();

  private readonly progress = inject(ElicitProgress, { optional: true });
  protected readonly locating = signal(false);
  protected readonly problem = signal<string | null>(null);
  protected readonly precise = computed(() => payloadOf('location', this.question())?.accuracy === 'high');

  protected locate(): void {
    const geolocation = typeof navigator === 'undefined' ? undefined : navigator.geolocation;
    if (!geolocation) {
      this.problem.set('This browser cannot share a location.');
      return;
    }
    this.locating.set(true);
    this.problem.set(null);
    // The agent hears that the person said yes and the device is working on it.
    this.progress?.report({ status: 'acquiring' });
    geolocation.getCurrentPosition(
      (position) => {
        this.locating.set(false);
        this.answered.emit({
          action: 'accept',
          content: { lat: position.coords.latitude, lng: position.coords.longitude },
        });
      },
      (error) => {
        this.locating.set(false);
        if (error.code === PERMISSION_DENIED) {
          this.answered.emit({ action: 'denied' });
        } else {
          this.problem.set(`Could not find your location (${error.message || 'unknown error'}). Try again?`);
        }
      },
      { enableHighAccuracy: this.precise(), timeout: 20_000 },
    );
  }
}
