import { parseNodeDraft } from './node';

describe('parseNodeDraft', () => {
  it('accepts each kind with the payload PROTOCOL.md gives it', () => {
    expect(
      parseNodeDraft({
        kind: 'user',
        payload: { text: 'hi', photos: [{ sha256: 'a'.repeat(64), mediaType: 'image/jpeg', bytes: 3 }] },
        authorId: 'u',
      }).success,
    ).toBe(true);
    expect(
      parseNodeDraft({
        kind: 'elicit',
        payload: { elicitId: 'e1', type: 'confirm', message: 'ok?', payload: { default: true } },
        authorId: 'agent:t',
      }).success,
    ).toBe(true);
    expect(
      parseNodeDraft({
        kind: 'response',
        payload: { elicitId: 'e1', action: 'accept', content: { value: true } },
        authorId: 'u',
      }).success,
    ).toBe(true);
    expect(
      parseNodeDraft({ kind: 'mode', payload: { from: null, to: 'surveying' }, authorId: 'agent:t' }).success,
    ).toBe(true);
  });

  it('names the bad fields of a payload', () => {
    const parsed = parseNodeDraft({
      kind: 'response',
      payload: { elicitId: '', action: 'maybe' },
      authorId: 'u',
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.')).sort()).toEqual([
      'payload.action',
      'payload.elicitId',
    ]);
  });

  it('holds photos by reference only: a photo inline (its bytes, base64) is no node payload', () => {
    const parsed = parseNodeDraft({
      kind: 'user',
      payload: { text: 'hi', photos: [{ mediaType: 'image/jpeg', data: 'AAAA' }] },
      authorId: 'u',
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toContain('payload.photos.0.sha256');
  });

  it('refuses unknown kinds and missing authors', () => {
    expect(parseNodeDraft({ kind: 'comment', payload: {}, authorId: 'u' }).success).toBe(false);
    expect(parseNodeDraft({ kind: 'user', payload: { text: 'x' } }).success).toBe(false);
  });
});
