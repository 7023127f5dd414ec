import { ok } from '@sweatpants/domain';
import type { ModelReply, ModelRequest } from '@sweatpants/agent-runtime';
import type { Model } from '@sweatpants/agent-runtime/host';
import { OfflineModel } from '@sweatpants/agent-runtime/offline';

import { TIDYING_OFFLINE_RULES } from '../src';
import { EXTRACT_TOOL, PHOTO_TOOL } from '../src/perception';
import { eventsOf, openSession, PHOTO, tapFirst } from './tidying-session-harness';

/**
 * The offline coach, except that the photo analysis and the reading of the words are answered in
 * words only (a model on a bad day: it chats where a structure was asked for) the first `wordy`
 * times each is asked. It records every request, so a spec can see what was forced and how often.
 */
function chattyModel(wordy: number): Model & { requests: ModelRequest[] } {
  const offline = new OfflineModel(TIDYING_OFFLINE_RULES);
  const chatted = new Map<string, number>();
  const requests: ModelRequest[] = [];
  return {
    kind: 'offline',
    name: 'chatty',
    requests,
    async complete(request, options) {
      requests.push(request);
      const structure = [PHOTO_TOOL, EXTRACT_TOOL].find((t) => request.tools.some((o) => o.name === t));
      if (structure) {
        const times = chatted.get(structure) ?? 0;
        if (times < wordy) {
          chatted.set(structure, times + 1);
          const words: ModelReply = {
            content: [{ type: 'text', text: 'Looks like a lovely desk! Where shall we start?' }],
            stopReason: 'end_turn',
            usage: { inputTokens: 100, outputTokens: 12 },
            model: 'chatty',
          };
          return ok(words);
        }
      }
      return offline.complete(request, options);
    },
  };
}

const forced = (requests: readonly ModelRequest[], tool: string) =>
  requests.filter((r) => r.toolChoice === tool).length;
const offered = (requests: readonly ModelRequest[], tool: string) =>
  requests.filter((r) => r.tools.some((t) => t.name === tool)).length;

describe('a structure the coach needs is forced, asked again once, then read by the offline rules', () => {
  it('forces the photo analysis with tool_choice; the reading of the words may speak first, so it is offered unforced', async () => {
    const model = chattyModel(0);
    const s = await openSession(model);
    await s.say('My desk is covered in mugs and papers', tapFirst, [PHOTO]);
    expect(forced(model.requests, PHOTO_TOOL)).toBe(1);
    expect(offered(model.requests, EXTRACT_TOOL)).toBe(1);
    expect(forced(model.requests, EXTRACT_TOOL)).toBe(0);
    expect(eventsOf(await s.path())).toContain('photo-analyzed');
  });

  it('asks once more when the model answers in words, and takes the second answer', async () => {
    const model = chattyModel(1);
    const s = await openSession(model);
    await s.say('My desk is covered in mugs and papers', tapFirst, [PHOTO]);
    expect(forced(model.requests, PHOTO_TOOL)).toBe(2);
    // the reading answered in words is asked again, forced this time
    expect(offered(model.requests, EXTRACT_TOOL)).toBe(2);
    expect(forced(model.requests, EXTRACT_TOOL)).toBe(1);
    expect(eventsOf(await s.path())).toContain('photo-analyzed');
    expect(s.state()).toMatchObject({ phase: 'sorting' });
  });

  it('goes on with what the offline rules read when the model never gives the structure', async () => {
    const model = chattyModel(Infinity);
    const s = await openSession(model);
    await s.say('My desk is covered in mugs and papers', tapFirst, [PHOTO]);
    expect(forced(model.requests, PHOTO_TOOL)).toBe(2);
    const path = await s.path();
    // The session has an analysis (guessed from the words), so later calls carry it, not the photo.
    expect(eventsOf(path)).toContain('photo-analyzed');
    await s.say('a coffee mug', tapFirst);
    // The person's words were read all the same: the mug was proposed and sorted.
    expect(JSON.stringify(s.state().piles)).toContain('mug');
    const later = model.requests.slice(-1)[0];
    expect(JSON.stringify(later?.messages)).not.toContain('"type":"image"');
  });
});
