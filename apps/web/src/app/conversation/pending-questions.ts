import { computed, signal } from '@angular/core';
import type { ElicitRequest } from '@sweatpants/domain';

/**
 * Every question waiting for the person, oldest first. Several agents may ask at once (the donation
 * helper inside the coach's turn), and each is answered on its own, in any order. The conversation
 * (on load and join) lists them whole; an `elicit` event adds one, and its answer or its withdrawal
 * ends that one only.
 */
export class PendingQuestions {
  private readonly list = signal<readonly ElicitRequest[]>([]);
  readonly all = this.list.asReadonly();
  /** The oldest: what the composer answers when it is a `chat` prompt, and what old clients saw. */
  readonly first = computed(() => this.list()[0] ?? null);

  /** The question with id `elicitId`; the oldest when no id is given. */
  find(elicitId?: string): ElicitRequest | null {
    if (elicitId === undefined) return this.first();
    return this.list().find((q) => q.elicitId === elicitId) ?? null;
  }

  /** A question asked; false when it was pending already (delivery is at-least-once). */
  asked(request: ElicitRequest): boolean {
    if (this.find(request.elicitId)) return false;
    this.list.update((list) => [...list, request]);
    return true;
  }

  /** Ends question `elicitId` (answered or withdrawn); says whether it was pending. */
  ended(elicitId: string): boolean {
    const list = this.list();
    const left = list.filter((q) => q.elicitId !== elicitId);
    if (left.length === list.length) return false;
    this.list.set(left);
    return true;
  }

  replace(questions: readonly ElicitRequest[]): void {
    this.list.set(questions);
  }
}
