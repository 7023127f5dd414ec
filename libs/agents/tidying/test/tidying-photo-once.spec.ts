import type { ModelRequest } from '@sweatpants/agent-runtime';
import type { Model } from '@sweatpants/agent-runtime/host';
import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import { TIDYING_OFFLINE_RULES } from '../src';
import { openSession, PHOTO, tapFirst } from './tidying-session-harness';

/** The offline coach, with every request it is sent kept in order. */
function recorded(): { model: Model; requests: ModelRequest[] } {
  const inner = new OfflineModel(TIDYING_OFFLINE_RULES);
  const requests: ModelRequest[] = [];
  return {
    requests,
    model: {
      kind: inner.kind,
      name: inner.name,
      complete: (request, options) => {
        requests.push(request);
        return inner.complete(request, options);
      },
    },
  };
}

const images = (r: ModelRequest) =>
  r.messages.flatMap((m) => m.content).filter((b) => b.type === 'image').length;
const isAnalysis = (r: ModelRequest) => r.tools.some((t) => t.name === 'record_photo_analysis');

describe('a photo is looked at once (seed 000: analyzePhotos, then the analysis in the context)', () => {
  it('goes to the model in the call that analyses it; later calls carry the analysis instead', async () => {
    const { model, requests } = recorded();
    const s = await openSession(model);
    try {
      await s.say('My desk is covered in mugs, papers and a lamp', tapFirst, [PHOTO]);
      await s.say('a mug', tapFirst);
      await s.say('some papers', tapFirst);

      const analysis = requests.filter(isAnalysis);
      expect(analysis.map(images)).toEqual([1]);
      const later = requests.filter((r) => !isAnalysis(r));
      expect(later.length).toBeGreaterThan(3);
      expect(later.map(images)).toEqual(later.map(() => 0));
      // what the photo showed is in the notes of every later reply, and the history says one was sent
      const replies = later.filter((r) => r.notes?.includes('Session'));
      expect(replies.length).toBeGreaterThan(0);
      for (const r of replies) expect(r.notes).toMatch(/Photo: a \w+ office/);
      expect(JSON.stringify(replies.at(-1)!.messages)).toContain('(a photo, already looked at');
    } finally {
      await s.runner.close();
    }
  });

  it('goes again when the person asks about the photo itself', async () => {
    const { model, requests } = recorded();
    const s = await openSession(model);
    try {
      await s.say('My desk is covered in mugs, papers and a lamp', tapFirst, [PHOTO]);
      const before = requests.length;
      await s.say('what else can you see in the photo?', tapFirst);
      const replies = requests.slice(before).filter((r) => r.notes?.includes('Session'));
      expect(replies.length).toBeGreaterThan(0);
      expect(replies.map(images)).toEqual(replies.map(() => 1));
    } finally {
      await s.runner.close();
    }
  });
});
