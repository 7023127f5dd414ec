import type { TurnSpan, TurnWaterfall } from '@sweatpants/domain';

import { costWords, dollarWords, durationWords, spanFigures, turnFigures } from './turn-words';

const tokens = { inputTokens: 1000, outputTokens: 200, cacheWriteTokens: 300, cacheReadTokens: 5000 };
const span: TurnSpan = {
  kind: 'model',
  label: 'claude-sonnet-4-5',
  nodeId: 'a'.repeat(64),
  startMs: 10,
  durationMs: 600,
  estimated: false,
  model: 'claude-sonnet-4-5',
  tokens,
  costUsd: 0.008625,
};

describe('a turn’s waterfall in words', () => {
  it('says durations in the unit a person reads them in', () => {
    expect([45, 610, 12_400, 125_000, 120_000].map(durationWords)).toEqual([
      '45 ms',
      '0.61 s',
      '12 s',
      '2 min 5 s',
      '2 min',
    ]);
  });

  it('says dollars to the cent, and fractions of a cent to four digits', () => {
    expect([0, 1.5, 0.008625, 0.00035].map(dollarWords)).toEqual(['$0', '$1.50', '$0.008625', '$0.00035']);
  });

  it('says a bar’s time, all the tokens it took in with the cached part, what came out and its cost', () => {
    expect(spanFigures(span)).toBe(
      '0.60 s, from 10 ms · 6,300 tokens in (5,000 cached) · 200 out · $0.008625',
    );
    expect(
      spanFigures({
        kind: 'tool',
        label: 'x',
        nodeId: span.nodeId,
        startMs: 620,
        durationMs: 5080,
        estimated: false,
      }),
    ).toBe('5.08 s, from 0.62 s');
    const { kind, label, nodeId, startMs, durationMs } = span;
    expect(spanFigures({ kind, label, nodeId, startMs, durationMs, estimated: true })).toBe(
      '0.60 s, from about 10 ms',
    );
  });

  it('sums a turn up on one line, without tokens when it called no model', () => {
    const turn: TurnWaterfall = {
      number: 1,
      nodeId: span.nodeId,
      opener: 'sort the attic',
      startedAt: '2026-11-26T10:00:00.000Z',
      durationMs: 6520,
      modelCalls: 1,
      tokens,
      costUsd: 0.008625,
      spans: [span],
    };
    expect(turnFigures(turn)).toBe(
      '6.52 s · 1 model call · 6,300 tokens in (5,000 cached) · 200 out · $0.008625',
    );
    expect(turnFigures({ ...turn, modelCalls: 0, spans: [] })).toBe('6.52 s · 0 model calls');
    expect(costWords(turn)).toBe('$0.008625');
    // the offline model's calls cost nothing: what made the turn heavy is its tokens
    expect(costWords({ ...turn, costUsd: 0 })).toBe('6,500 tokens');
  });
});
