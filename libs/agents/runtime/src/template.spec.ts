import { prompt } from './template';

describe('prompt', () => {
  it('drops the code’s indentation and keeps the prompt’s own', () => {
    expect(
      prompt`
        You are a coach.
          Indented on purpose.
        Short replies.`,
    ).toBe('You are a coach.\n  Indented on purpose.\nShort replies.');
  });

  it('measures the indentation on the literal, so a value of several lines does not keep it', () => {
    const policy = 'Tier 1: archive.\nTier 2: note it.\nTier 3: surface it.';
    expect(
      prompt`
        You sort someone's inbox.
        ${policy}
        Ask before you change anything.`,
    ).toBe(
      "You sort someone's inbox.\nTier 1: archive.\nTier 2: note it.\nTier 3: surface it.\nAsk before you change anything.",
    );
  });

  it('joins a list one per line and leaves out the lines whose values are all empty', () => {
    const going: string[] = [];
    expect(
      prompt`
        Session
        Items: ${['mug', 'papers']}
        ${going.length ? `Going out: ${going.join(', ')}` : ''}
        ${null}${undefined}
        Phase: ${'sorting'}`,
    ).toBe('Session\nItems: mug\npapers\nPhase: sorting');
  });

  it('keeps a line that has words beside an empty value', () => {
    expect(prompt`
      Photo: ${''}
      Done.`).toBe('Photo: \nDone.');
  });
});
