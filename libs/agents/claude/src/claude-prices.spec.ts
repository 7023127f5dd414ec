import { claudePrices, costOf, UNKNOWN_MODEL_PRICES } from './claude-prices';

const MILLION = 1_000_000;

describe('claudePrices', () => {
  it('prices each family at its published per-million rates', () => {
    expect(claudePrices('claude-opus-4-5-20251101').prices).toEqual({
      input: 5,
      output: 25,
      cacheWrite: 6.25,
      cacheRead: 0.5,
    });
    expect(claudePrices('claude-sonnet-4-5').prices).toMatchObject({ input: 3, output: 15 });
    expect(claudePrices('claude-haiku-4-5-20251001').prices).toMatchObject({ input: 1, output: 5 });
  });

  it('knows the older generations that cost differently from their family today', () => {
    expect(claudePrices('claude-opus-4-1-20250805').prices).toMatchObject({ input: 15, output: 75 });
    expect(claudePrices('claude-3-5-haiku-20241022').prices).toMatchObject({ input: 0.8, output: 4 });
    expect(claudePrices('claude-3-haiku-20240307').prices).toMatchObject({ input: 0.25, output: 1.25 });
  });

  it('prices a newer model of a known family as that family (the default model among them)', () => {
    expect(claudePrices('claude-sonnet-5-5')).toEqual({
      prices: expect.objectContaining({ input: 3, output: 15 }),
      matched: 'sonnet family',
    });
  });

  it('bills a model nobody priced at the dearest prices, never at 0', () => {
    expect(claudePrices('gpt-5')).toEqual({ prices: UNKNOWN_MODEL_PRICES, matched: null });
    expect(UNKNOWN_MODEL_PRICES.input).toBe(15);
  });
});

describe('costOf', () => {
  it('adds fresh input, cache writes (1.25×), cache reads (0.1×) and output, in dollars', () => {
    const cost = costOf('claude-sonnet-4-5', {
      inputTokens: MILLION,
      cacheWriteTokens: MILLION,
      cacheReadTokens: MILLION,
      outputTokens: MILLION,
    });

    expect(cost).toBeCloseTo(3 + 3.75 + 0.3 + 15, 10);
  });

  it('counts absent cache figures as none', () => {
    expect(costOf('claude-haiku-4-5', { inputTokens: 2000, outputTokens: 100 })).toBeCloseTo(0.0025, 10);
  });

  it('costs nothing on the offline model', () => {
    expect(costOf('offline', { inputTokens: MILLION, outputTokens: MILLION })).toBe(0);
  });

  it('says once which unknown model it billed at the dearest prices', () => {
    const said: string[] = [];
    const usage = { inputTokens: MILLION, outputTokens: 0 };

    expect(costOf('mystery-model-1', usage, (m) => said.push(m))).toBe(15);
    expect(costOf('mystery-model-1', usage, (m) => said.push(m))).toBe(15);

    expect(said).toEqual([expect.stringContaining("'mystery-model-1'")]);
  });
});
