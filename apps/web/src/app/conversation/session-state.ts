import type { StateResponse } from '@sweatpants/domain';

import { isRecord } from '../core/json';

/**
 * The agent state as the panel shows it. PROTOCOL.md fixes only a few fields per agent (the rest
 * is the agent's own), so this reads those loosely and lists anything else as plain facts.
 */
export interface SessionStateView {
  agent: string;
  headline: { label: string; value: string }[];
  piles: { label: string; items: string[] }[];
  lists: { label: string; items: string[] }[];
}

const PILE_LABELS: Record<string, string> = { belongs: 'Belongs here', out: 'Out', unsure: 'Unsure' };

export function sessionStateView(response: StateResponse): SessionStateView {
  const state: unknown = response.state;
  const view: SessionStateView = { agent: response.agent, headline: [], piles: [], lists: [] };
  if (!isRecord(state)) return view;
  if (response.agent === 'tidying') {
    pushValue(view, 'Phase', state['phase']);
    pushValue(view, 'Items sorted', state['itemsProcessed']);
    pushValue(view, 'What the space is for', state['function']);
    const piles = state['piles'];
    const sorted = new Set<string>();
    if (isRecord(piles)) {
      // An item on its way out says where it goes ("mugs → kitchen"), one kept here its spot
      // when one was named ("keys → hook by the door").
      const places: Record<string, unknown> = {
        out: isRecord(state['destinations']) ? state['destinations'] : {},
        belongs: isRecord(state['spots']) ? state['spots'] : {},
      };
      for (const key of ['belongs', 'out', 'unsure']) {
        for (const item of strings(piles[key])) sorted.add(item);
        const at = places[key];
        const items = strings(piles[key]).map((item) => {
          const to = isRecord(at) ? at[item] : undefined;
          return typeof to === 'string' && to !== '' ? `${item} → ${placeAfterArrow(to)}` : item;
        });
        view.piles.push({ label: PILE_LABELS[key] ?? key, items });
      }
    }
    // What the photos showed and the person named that is on no pile yet, and not staying for
    // sure (an anchor): the coach comes to it.
    const anchors = strings(state['anchors']);
    const toGo = strings(state['seen']).filter((item) => !sorted.has(item) && !anchors.includes(item));
    if (toGo.length > 0) view.lists.push({ label: 'Still to go', items: toGo });
    if (anchors.length > 0) view.lists.push({ label: 'Staying for sure', items: anchors });
  } else {
    // An agent's mode is how it works (its prompt and tools), not something the person tracks:
    // what the mode is doing shows as its own facts, as the concierge's review does.
    const review = state['review'];
    // The concierge's interview: how far it is, and what was applied to each item.
    if (isRecord(review) && Array.isArray(review['items'])) {
      pushValue(view, 'Reviewed', `${display(review['done'])} of ${display(review['total'])}`);
      view.lists.push({ label: 'Items under review', items: review['items'].map(reviewLine) });
      // What the interview took from the person's picks, which its next questions follow.
      const learnt = strings(review['learnt']);
      if (learnt.length > 0) view.lists.push({ label: 'Learnt from your picks', items: learnt });
    }
  }
  return view;
}

/**
 * A place as it reads after the arrow: the words said it "on the hook by the door" or "the
 * kitchen", and the arrow already says "to", so every line reads alike ("keys → hook by the
 * door"). A word that says where beside it stays ("shoes → by the door").
 */
function placeAfterArrow(place: string): string {
  return place.replace(/^(?:(?:in|on|into|onto|inside|at)\s+)?(?:the\s+)?/i, '') || place;
}

function reviewLine(item: unknown): string {
  if (!isRecord(item)) return display(item);
  const title = display(item['title'] ?? item['id']);
  const decision = item['decision'];
  return isRecord(decision) && typeof decision['label'] === 'string'
    ? `${title}: ${decision['label']}`
    : `${title}: not decided yet`;
}

function pushValue(view: SessionStateView, label: string, value: unknown): void {
  if (value === undefined || value === null || value === '') return;
  view.headline.push({ label, value: display(value) });
}

function display(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  if (isRecord(value) && typeof value['tag'] === 'string') return value['tag'];
  if (isRecord(value) && typeof value['name'] === 'string') return value['name'];
  return JSON.stringify(value);
}

function strings(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.map((item) => (typeof item === 'string' ? item : display(item)));
}
