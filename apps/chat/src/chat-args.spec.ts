import { parseChatArgs } from './chat-args';

describe('the chat’s arguments', () => {
  it('reads an agent by name, as a flag in one word or two, or bare', () => {
    expect(parseChatArgs(['--agent=tidying'])).toEqual({
      ok: true,
      value: { target: { kind: 'registered', name: 'tidying' } },
    });
    expect(parseChatArgs(['--agent', 'tidying'])).toEqual(parseChatArgs(['--agent=tidying']));
    expect(parseChatArgs(['tidying'])).toEqual(parseChatArgs(['--agent=tidying']));
  });

  it('reads a bare argument as a file when it reads as a path, which no agent name does', () => {
    const file = (path: string) => ({ ok: true, value: { target: { kind: 'file', path } } });
    expect(parseChatArgs(['./my-agent.ts'])).toEqual(file('./my-agent.ts'));
    expect(parseChatArgs(['agents/scales'])).toEqual(file('agents/scales'));
    expect(parseChatArgs(['scales.js'])).toEqual(file('scales.js'));
    expect(parseChatArgs(['--file', 'scales'])).toEqual(file('scales'));
  });

  it('reads the model, and refuses one it does not know', () => {
    expect(parseChatArgs(['--model=claude', 'donations'])).toEqual({
      ok: true,
      value: { model: 'claude', target: { kind: 'registered', name: 'donations' } },
    });
    expect(parseChatArgs(['--model', 'offline'])).toEqual({ ok: true, value: { model: 'offline' } });
    expect(parseChatArgs(['--model=gpt'])).toEqual({
      ok: false,
      error: '--model is offline or claude, not "gpt".',
    });
  });

  it('refuses two agents, an option with no value and an option it does not know', () => {
    expect(parseChatArgs(['tidying', './scales.ts'])).toEqual({
      ok: false,
      error: 'Name one agent, not "tidying" and ./scales.ts.',
    });
    expect(parseChatArgs(['--file'])).toEqual({ ok: false, error: '--file needs a value.' });
    expect(parseChatArgs(['--verbose=1'])).toEqual({ ok: false, error: 'Unknown option --verbose.' });
    expect(parseChatArgs(['--help', 'tidying'])).toEqual({ ok: false, error: 'Unknown option --help.' });
  });
});
