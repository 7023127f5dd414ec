import { toJson } from '@sweatpants/domain';
import type { OfflineRule } from '@sweatpants/agent-runtime/offline';
import { fresh, inOverview, lastQueried } from './offline-read';
import { readingSaidIn, senderOf, sendersNamedIn } from './offline-split-pick';
import { frameOptions } from './option-framing';

/**
 * A new reading said of a sender in the overview, once its mail was read ("wait actually I want to
 * see the bookbarn ones after all", "trailgear is just spam"): applied to that sender's mail as the
 * card's option of that reading would have been, in one batch; confirmBatch says what changed. A
 * pick is taken back by rewinding (./offline-aside); this is a new decision, kept in the audit.
 */
export const newReadingOfASender: OfflineRule = {
  name: 'concierge: a reading said of a sender in the overview applies to its mail',
  when: (ctx) => inOverview(ctx) && fresh(ctx) && lastQueried(ctx) !== undefined,
  reply: (ctx) => {
    const named = sendersNamedIn(ctx.userText, lastQueried(ctx)?.activities ?? []);
    const [first] = named;
    if (!first) return undefined;
    const option = readingSaidIn(
      ctx.userText,
      frameOptions({ kind: first.classification.activityType, activities: named }),
    );
    if (!option) return undefined;
    const senders = [...new Set(named.map(senderOf))].join(', ');
    return {
      text: `(offline) ${option.id} for ${senders} from now on: applying it.`,
      calls: [
        {
          name: 'update_activities',
          input: toJson({ activity_ids: named.map((a) => a.id), updates: option.updates }),
        },
      ],
    };
  },
};
