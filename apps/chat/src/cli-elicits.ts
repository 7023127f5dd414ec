import type { Readable, Writable } from 'node:stream';
import {
  parseElicitResponse,
  type ElicitRequest,
  type ElicitResponse,
  type Result,
} from '@sweatpants/domain';
import type { Operation } from 'effection';
import type * as z from 'zod';
import type { Implementation } from '@sweatpants/agent-runtime';
import type { ElicitResponseSchema, ElicitProtocolSpec } from '@sweatpants/agent-runtime/host';
import { formatIssues, validateJson } from '@sweatpants/agent-runtime/offline';
import type { Candidate, CliIo, Settled } from './cli-io';
import { askForm } from './cli-form';
import { PROMPTS, type Prompt } from './cli-prompts';
import { LineReader } from './line-reader';

export interface CliElicitsOptions {
  input: Readable;
  output: Writable;
  /** who answers at this terminal; the nodes recording their answers are authored by them */
  answeredBy?: string;
}

/** Typed at any prompt: leave the question in one of the ways PROTOCOL.md names. */
const COMMANDS: Record<string, Candidate> = {
  '/decline': { action: 'decline' },
  '/cancel': { action: 'cancel' },
  '/deny': { action: 'denied' },
};
const HELP = '  (/decline, /cancel, /deny, or "? <text>" to say something else)';

/**
 * The elicit protocol in a terminal (seed 004's CLI implementation): each elicit type has its own
 * prompt style (cli-prompts), read over injectable streams so tests drive it with PassThroughs.
 * At any prompt `/decline`, `/cancel` and `/deny` answer with that action, `? <text>` goes
 * off-script (`other`), and the end of input cancels. Every answer is checked with
 * parseElicitResponse (and a form's against its schema) before it is returned; one that does not
 * fit is explained and asked again.
 *
 * @example
 * const cli = new CliElicits({ input: process.stdin, output: process.stdout, answeredBy: 'user:me' });
 * yield* ElicitProtocol.implement(cli.implementation);
 */
export class CliElicits {
  private readonly reader: LineReader;

  constructor(private readonly options: CliElicitsOptions) {
    this.reader = new LineReader(options.input);
  }

  /** The implementation to put in force with `ElicitProtocol.implement`. */
  readonly implementation: Implementation<ElicitProtocolSpec> = {
    elicit: (request) => this.answer(request as ElicitRequest),
  };

  /** Shows `request`, reads until the answer fits its type, and returns it. */
  *ask(request: ElicitRequest, nested = false): Operation<ElicitResponse> {
    this.say(nested ? `? ${request.message}` : `\n? ${request.message}`);
    if (!nested && request.type !== 'chat') this.say(HELP);
    const io: CliIo = {
      say: (text) => this.say(text),
      read: (prompt) => this.read(prompt),
      ask: (inner) => this.ask(inner, true),
    };
    for (;;) {
      // A type an app created (createElicit) has no prompt of its own: its content's schema is a form.
      const prompt = (PROMPTS as Partial<Record<string, Prompt>>)[request.type] ?? askForm;
      const candidate = yield* prompt(request, io);
      const checked = check(request, candidate);
      if (checked.ok) return checked.value;
      this.say(`  That does not fit: ${checked.error}`);
    }
  }

  private *answer(request: ElicitRequest): Operation<z.infer<typeof ElicitResponseSchema>> {
    let answered = false;
    try {
      const response = yield* this.ask(request);
      answered = true;
      const by = this.options.answeredBy;
      return by === undefined ? response : { ...response, answeredBy: by };
    } finally {
      // Halted before an answer: the turn was cancelled, or the question timed out.
      if (!answered) this.say('  (the question was withdrawn)');
    }
  }

  /** Writes a line to the output. */
  say(text: string): void {
    this.options.output.write(`${text}\n`);
  }

  /** Stops reading the input. */
  close(): void {
    this.reader.close();
  }

  private *read(prompt: string): Operation<string | Settled> {
    this.options.output.write(prompt);
    const line = yield* this.reader.next();
    if (line === null) return { settled: { action: 'cancel' } };
    const text = line.trim();
    const command = COMMANDS[text.toLowerCase()];
    if (command) return { settled: command };
    if (!text.startsWith('?')) return line;
    let said = text.slice(1).trim();
    while (said === '') {
      this.options.output.write('say> ');
      const more = yield* this.reader.next();
      if (more === null) return { settled: { action: 'cancel' } };
      said = more.trim();
    }
    return { settled: { action: 'other', content: { text: said } } };
  }
}

/** The candidate as a response of the request's type, or why it is not one. */
function check(request: ElicitRequest, candidate: Candidate): Result<ElicitResponse, string> {
  const parsed = parseElicitResponse(request.type, candidate);
  if (!parsed.ok) return { ok: false, error: parsed.error.message };
  const drawnAsForm = request.type === 'form' || !(request.type in PROMPTS);
  if (drawnAsForm && parsed.value.action === 'accept' && request.schema) {
    const issues = validateJson(request.schema, parsed.value.content);
    if (issues.length > 0) return { ok: false, error: formatIssues(issues) };
  }
  return parsed;
}
