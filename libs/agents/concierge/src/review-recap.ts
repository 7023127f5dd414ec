import type { ConciergeReview, ReviewDecision, ReviewItem } from '@sweatpants/domain';

/**
 * What the interview changed, as the user reads it at its end: each decision with the items it
 * applied to (items decided alike share a line) and what they became, then what stays
 * quarantined. Built from the review's fold, so it says exactly what the state says.
 */
export function recapOf(review: ConciergeReview | null): string {
  if (!review || review.total === 0) return 'No quarantined items were reviewed, so nothing changed.';
  const undecided = review.items.filter((i) => i.decision === null);
  if (undecided.length === review.total)
    return `None of the ${count(review.total)} was decided; ${review.total === 1 ? 'it stays' : 'they stay'} quarantined.`;
  const lines = new Map<string, { decision: ReviewDecision; items: ReviewItem[] }>();
  for (const item of review.items) {
    if (!item.decision) continue;
    const key = JSON.stringify(item.decision);
    const line = lines.get(key) ?? { decision: item.decision, items: [] };
    line.items.push(item);
    lines.set(key, line);
  }
  return [
    `${review.done} of ${count(review.total)} decided:`,
    ...[...lines.values()].map(
      ({ decision, items }) => `- ${items.map(named).join(', ')}: ${decided(decision)}`,
    ),
    ...(undecided.length > 0 ? [`Still quarantined: ${undecided.map(named).join(', ')}.`] : []),
  ].join('\n');
}

function count(n: number): string {
  return n === 1 ? '1 item' : `${n} items`;
}

function named(item: ReviewItem): string {
  return item.from ? `“${item.title}” (${item.from})` : `“${item.title}”`;
}

function decided(decision: ReviewDecision): string {
  const became = [
    decision.status,
    decision.activityType,
    decision.autonomyTier === null ? null : `Tier ${decision.autonomyTier}`,
  ].filter((part): part is string => part !== null);
  const what = became.length > 0 ? `Now ${became.join(', ')}.` : 'Changed.';
  return decision.label ? `${decision.label.replace(/[.\s]+$/, '')}. ${what}` : what;
}
