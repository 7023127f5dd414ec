import { HttpClient, HttpErrorResponse } from '@angular/common/http';
import { computed, inject, Injectable, signal } from '@angular/core';
import { type Health, HealthSchema } from '@sweatpants/domain';
import { firstValueFrom } from 'rxjs';

/** What the last look at `GET /api/health` found. */
export type HealthResult =
  | { readonly kind: 'ok'; readonly health: Health }
  /** No usable answer: the api is down, the network failed, or the request timed out. */
  | { readonly kind: 'unreachable'; readonly reason: string }
  /** The api answered, but not with the shape `HealthSchema` describes. */
  | { readonly kind: 'invalid'; readonly reason: string };

const HEALTH_URL = '/api/health';
const TIMEOUT_MS = 10_000;

/**
 * Which defaults the api runs on (database, queue, model). One instance for the app, so the top
 * bar's "offline model" label and the status page read the same answer.
 */
@Injectable({ providedIn: 'root' })
export class HealthService {
  private readonly http = inject(HttpClient);
  private readonly latest = signal<HealthResult | null>(null);
  private readonly inFlight = signal(0);
  /** Numbers each check, so an older answer that arrives late never overwrites a newer one. */
  private sequence = 0;

  /** The last answer; `null` until the first check ends. */
  readonly result = this.latest.asReadonly();
  readonly checking = computed(() => this.inFlight() > 0);
  readonly modelOffline = computed(() => {
    const result = this.latest();
    return result?.kind === 'ok' && result.health.model === 'offline';
  });

  /** Jobs run through Redis (BullMQ), so admins have a queue dashboard; in-process, there is none. */
  readonly queuesInRedis = computed(() => {
    const result = this.latest();
    return result?.kind === 'ok' && result.health.queue === 'ok';
  });

  /** Asks the api again. Never rejects: every failure becomes a `HealthResult`. */
  async check(): Promise<void> {
    const ticket = ++this.sequence;
    this.inFlight.update((n) => n + 1);
    try {
      const result = await this.fetchHealth();
      if (ticket === this.sequence) this.latest.set(result);
    } finally {
      this.inFlight.update((n) => n - 1);
    }
  }

  private async fetchHealth(): Promise<HealthResult> {
    try {
      const body = await firstValueFrom(this.http.get<unknown>(HEALTH_URL, { timeout: TIMEOUT_MS }));
      return validate(body);
    } catch (error: unknown) {
      return { kind: 'unreachable', reason: describeFailure(error) };
    }
  }
}

function validate(body: unknown): HealthResult {
  const parsed = HealthSchema.safeParse(body);
  if (parsed.success) return { kind: 'ok', health: parsed.data };
  const issues = parsed.error.issues.map((issue) => {
    const where = issue.path.map(String).join('.') || 'body';
    return `${where}: ${issue.message}`;
  });
  return { kind: 'invalid', reason: issues.join('; ') };
}

function describeFailure(error: unknown): string {
  if (!(error instanceof HttpErrorResponse)) return 'the request failed';
  // A 2xx that still failed is a body that is not JSON: usually a page served in the api's place.
  if (error.status >= 200 && error.status < 300) return 'the api answered, but not with JSON';
  if (error.status === 0) return 'the api did not answer';
  return `the api answered ${`${error.status} ${error.statusText}`.trim()}`;
}
