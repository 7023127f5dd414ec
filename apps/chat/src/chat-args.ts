import { err, ok, type Result } from '@sweatpants/domain';

/** Which model answers: the offline one with the agent's rules, or Claude. */
export type ChatModelChoice = 'offline' | 'claude';

/** What the terminal chat was asked to run: an agent registered by name, or one in a file. */
export type ChatTarget = { kind: 'registered'; name: string } | { kind: 'file'; path: string };

export interface ChatArgs {
  /** none when no agent was named (the usage is printed) */
  target?: ChatTarget;
  /** none when not chosen: Claude when ANTHROPIC_API_KEY is set, the offline model otherwise */
  model?: ChatModelChoice;
}

export const CHAT_USAGE =
  'Usage: chat [--model=offline|claude] <agent> | --agent=<name> | <file.ts> | --file=<path>';

/**
 * The chat's arguments: `--agent=<name>`, `--file=<path>` and `--model=offline|claude` (each also
 * as two words), or a bare argument, which is a file when it reads as a path (a `/`, or a
 * `.ts`/`.js` ending: no agent name has either) and an agent's name otherwise.
 */
export function parseChatArgs(args: readonly string[]): Result<ChatArgs, string> {
  const parsed: ChatArgs = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const [flag, inline] = arg.startsWith('--') ? splitFlag(arg) : [undefined, undefined];
    if (flag === undefined) {
      const target = targetOf(arg);
      if (parsed.target)
        return err(`Name one agent, not ${describe(parsed.target)} and ${describe(target)}.`);
      parsed.target = target;
      continue;
    }
    if (flag !== 'agent' && flag !== 'file' && flag !== 'model') return err(`Unknown option --${flag}.`);
    const value = inline ?? args[++i];
    if (value === undefined || value === '') return err(`--${flag} needs a value.`);
    switch (flag) {
      case 'agent':
      case 'file': {
        const target: ChatTarget =
          flag === 'agent' ? { kind: 'registered', name: value } : { kind: 'file', path: value };
        if (parsed.target)
          return err(`Name one agent, not ${describe(parsed.target)} and ${describe(target)}.`);
        parsed.target = target;
        break;
      }
      case 'model':
        if (value !== 'offline' && value !== 'claude')
          return err(`--model is offline or claude, not "${value}".`);
        parsed.model = value;
        break;
    }
  }
  return ok(parsed);
}

function splitFlag(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return eq < 0 ? [arg.slice(2), undefined] : [arg.slice(2, eq), arg.slice(eq + 1)];
}

function targetOf(arg: string): ChatTarget {
  return /[/\\]|\.[cm]?[jt]s$/.test(arg) ? { kind: 'file', path: arg } : { kind: 'registered', name: arg };
}

function describe(target: ChatTarget): string {
  return target.kind === 'file' ? target.path : `"${target.name}"`;
}
