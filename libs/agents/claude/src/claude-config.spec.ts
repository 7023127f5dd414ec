import { startFakeAnthropic } from './testing';
import { claudeConfig, claudeConfigFrom, DEFAULT_CLAUDE_MODEL } from './claude-config';
import { ClaudeModel } from './claude-model';

describe('claudeConfigFrom', () => {
  it('answers null without an API key (the offline model runs), also for an empty one', () => {
    expect(claudeConfigFrom({})).toEqual({ ok: true, value: null });
    expect(claudeConfigFrom({ ANTHROPIC_API_KEY: '  ', ANTHROPIC_MODEL: 'claude-x' })).toEqual({
      ok: true,
      value: null,
    });
  });

  it('fills the defaults around a key', () => {
    expect(claudeConfigFrom({ ANTHROPIC_API_KEY: ' sk-1 ', ANTHROPIC_MODEL: '' })).toEqual({
      ok: true,
      value: {
        apiKey: 'sk-1',
        model: DEFAULT_CLAUDE_MODEL,
        maxTokens: 4096,
        retry: { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8000 },
        stream: true,
      },
    });
  });

  it('reads the base URL, model, fallback model and max tokens', () => {
    const config = claudeConfigFrom({
      ANTHROPIC_API_KEY: 'sk-1',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:4010',
      ANTHROPIC_MODEL: 'claude-opus-4-5',
      ANTHROPIC_FALLBACK_MODEL: 'claude-haiku-4-5',
      ANTHROPIC_MAX_TOKENS: '1024',
    });

    expect(config.ok && config.value).toMatchObject({
      baseURL: 'http://127.0.0.1:4010',
      model: 'claude-opus-4-5',
      fallbackModel: 'claude-haiku-4-5',
      maxTokens: 1024,
    });
  });

  it('names each bad variable without echoing its value', () => {
    const config = claudeConfigFrom({
      ANTHROPIC_API_KEY: 'sk-secret',
      ANTHROPIC_BASE_URL: 'ftp://sk-secret',
      ANTHROPIC_MAX_TOKENS: '12.5',
    });

    expect(config.ok).toBe(false);
    const problems = config.ok ? [] : config.error;
    expect(problems.map((p) => p.field)).toEqual(['ANTHROPIC_BASE_URL', 'ANTHROPIC_MAX_TOKENS']);
    expect(JSON.stringify(problems)).not.toContain('sk-secret');
  });
});

describe('the default model', () => {
  /** What the SDK prints while sending one request naming `model`. */
  async function warningsFor(model: string | undefined): Promise<string[]> {
    const fake = await startFakeAnthropic();
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      fake.script({ kind: 'reply', content: [{ type: 'text', text: 'hi' }] });
      const config = claudeConfig({ apiKey: 'k', baseURL: fake.url, ...(model ? { model } : {}) });
      const reply = await new ClaudeModel(config).complete(
        { system: '', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] },
        { signal: new AbortController().signal },
      );
      expect(reply.ok).toBe(true);
      return warn.mock.calls.map((args) => String(args[0]));
    } finally {
      warn.mockRestore();
      await fake.close();
    }
  }

  it('is a Sonnet the SDK does not warn about as deprecated, as it does for claude-sonnet-4-5', async () => {
    expect(DEFAULT_CLAUDE_MODEL).toMatch(/^claude-sonnet-/);
    expect(await warningsFor(undefined)).toEqual([]);
    expect(await warningsFor('claude-sonnet-4-5')).toEqual([expect.stringContaining('deprecated')]);
  });
});

describe('claudeConfig', () => {
  it('merges a partial retry policy over the defaults', () => {
    expect(claudeConfig({ apiKey: 'k', retry: { baseDelayMs: 1 } }).retry).toEqual({
      maxRetries: 2,
      baseDelayMs: 1,
      maxDelayMs: 8000,
    });
  });
});
