import { PassThrough } from 'node:stream';
import { createElicit, type ElicitRequest, type ElicitType } from '@sweatpants/domain';
import { run, sleep, spawn } from 'effection';
import * as z from 'zod';
import { ElicitProtocol } from '@sweatpants/agent-runtime/host';
import { CliElicits } from './cli-elicits';

/** A terminal on PassThrough streams with `lines` already typed (a paste: all at once). */
function terminal(lines: string[], options: { end?: boolean; answeredBy?: string } = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  const cli = new CliElicits({ input, output, ...options });
  for (const line of lines) input.write(`${line}\n`);
  if (options.end) input.end();
  return {
    cli,
    input,
    /** everything written so far, once the stream has delivered it */
    shown: async () => {
      await new Promise((r) => setImmediate(r));
      return shown;
    },
  };
}

function elicitOf<T extends ElicitType>(
  type: T,
  payload: ElicitRequest<T>['payload'],
  extra: Partial<ElicitRequest> = {},
): ElicitRequest {
  return { elicitId: 'e1', type, message: `A ${type} question`, payload, ...extra } as ElicitRequest;
}

async function answer(request: ElicitRequest, ...lines: string[]) {
  const t = terminal(lines);
  const response = await run(() => t.cli.ask(request));
  t.cli.close();
  return { response, shown: await t.shown() };
}

describe('CliElicits, one prompt style per elicit type', () => {
  it('chat: the line typed is the message; blank lines are not', async () => {
    const { response, shown } = await answer(elicitOf('chat', { placeholder: 'Say hi' }), '', 'hello there');
    expect(response).toEqual({ action: 'accept', content: { text: 'hello there' } });
    expect(shown).toContain('? A chat question');
    expect(shown).toContain('(Say hi)');
  });

  it('confirm: Enter takes the default, y/n answer, anything else is asked again', async () => {
    const byDefault = await answer(elicitOf('confirm', { default: true }), '');
    const again = await answer(elicitOf('confirm', { default: false }), 'maybe', 'yes');
    expect(byDefault.response).toEqual({ action: 'accept', content: { value: true } });
    expect(byDefault.shown).toContain('[Y/n]');
    expect(again.response).toEqual({ action: 'accept', content: { value: true } });
    expect(again.shown).toContain('Answer y or n.');
  });

  it('propose-disposition: a number takes a choice; a word or a place typed instead is a correction', async () => {
    const request = elicitOf('propose-disposition', {
      item: 'mug',
      reason: 'chipped',
      choices: [
        { id: 'k', label: 'Kitchen shelf', disposition: { kind: 'place', location: 'kitchen shelf' } },
        { id: 't', label: 'Trash it', disposition: { kind: 'trash' } },
      ],
    });
    const picked = await answer(request, '2');
    const named = await answer(request, 'trash');
    const elsewhere = await answer(request, 'garage');
    const donated = await answer(request, 'donate');

    expect(picked.shown).toContain('Item: mug (chipped)');
    expect(picked.shown).toContain('1. Kitchen shelf');
    expect([picked, named, elsewhere, donated].map((a) => a.response)).toEqual([
      { action: 'accept', content: { disposition: { kind: 'trash' }, wasCorrection: false } },
      { action: 'accept', content: { disposition: { kind: 'trash' }, wasCorrection: false } },
      {
        action: 'accept',
        content: { disposition: { kind: 'place', location: 'garage' }, wasCorrection: true },
      },
      { action: 'accept', content: { disposition: { kind: 'donate' }, wasCorrection: true } },
    ]);
  });

  it('choose: by number or label; an option with a reveal asks its follow-up and carries the answer', async () => {
    const request = elicitOf('choose', {
      options: [
        { id: 'desk', label: 'Desk', description: 'the big one' },
        { id: 'other', label: 'Something else' },
      ],
      reveals: { other: { type: 'free-text', message: 'Which one?', payload: {} } },
    });
    const byLabel = await answer(request, 'desk');
    const revealed = await answer(request, '7', '2', 'the shelf');

    expect(byLabel.response).toEqual({ action: 'accept', content: { choiceId: 'desk' } });
    expect(byLabel.shown).toContain('1. Desk - the big one');
    expect(revealed.response).toEqual({
      action: 'accept',
      content: { choiceId: 'other', revealed: { text: 'the shelf' } },
    });
    expect(revealed.shown).toContain('Pick 1 to 2.');
    expect(revealed.shown).toContain('? Which one?');
  });

  it('free-text: the line as typed', async () => {
    const { response, shown } = await answer(elicitOf('free-text', { placeholder: 'a room' }), 'the attic');
    expect(response).toEqual({ action: 'accept', content: { text: 'the attic' } });
    expect(shown).toContain('(a room) > ');
  });

  it('group: shows every question before the first prompt, then asks each in its own style', async () => {
    const request = elicitOf('group', {
      questions: [
        { id: 'room', type: 'free-text', message: 'Which room?', payload: {} },
        { id: 'sure', type: 'confirm', message: 'Start now?', payload: { default: false } },
      ],
    });
    const { response, shown } = await answer(request, 'study', 'y');
    expect(response).toEqual({
      action: 'accept',
      content: { answers: { room: { text: 'study' }, sure: { value: true } } },
    });
    const listed = shown.indexOf('2. Start now?');
    expect(listed).toBeGreaterThan(shown.indexOf('1. Which room?'));
    expect(listed).toBeLessThan(shown.indexOf('> '));
  });

  it('form: one line per property of the flat schema, with defaults, choices, and types checked', async () => {
    const request = elicitOf(
      'form',
      {},
      {
        schema: {
          type: 'object',
          properties: {
            name: { type: 'string', title: 'Your name' },
            age: { type: 'integer', minimum: 0 },
            subscribe: { type: 'boolean', default: false },
            color: { type: 'string', enum: ['red', 'green'] },
            note: { type: 'string' },
          },
          required: ['name', 'age'],
        },
      },
    );
    const { response, shown } = await answer(request, '', 'Ada', 'old', '36', '', '2', '');
    expect(response).toEqual({
      action: 'accept',
      content: { name: 'Ada', age: 36, subscribe: false, color: 'green' },
    });
    expect(shown).toContain('Your name (string)> ');
    expect(shown).toContain('This one is required.');
    expect(shown).toContain('That is not a whole number.');
    expect(shown).toContain('2. green');
  });

  it('form: an object the schema refuses is explained and the form asked again', async () => {
    const request = elicitOf(
      'form',
      {},
      { schema: { type: 'object', properties: { age: { type: 'integer', minimum: 0 } }, required: ['age'] } },
    );
    const { response, shown } = await answer(request, '-3', '4');
    expect(response).toEqual({ action: 'accept', content: { age: 4 } });
    expect(shown).toContain('That does not fit: $.age');
  });

  it("a type an app created: its content's schema asked as a form, the answer checked by its declaration", async () => {
    createElicit({
      name: 'donation-pickup',
      payload: z.object({}),
      content: z.object({ bags: z.number().int().min(1) }),
      actions: ['accept', 'cancel'],
    });
    const request = elicitOf(
      'donation-pickup' as ElicitType,
      {},
      {
        schema: { type: 'object', properties: { bags: { type: 'integer', minimum: 1 } }, required: ['bags'] },
      },
    );
    const { response, shown } = await answer(request, '0', '3');
    expect(response).toEqual({ action: 'accept', content: { bags: 3 } });
    expect(shown).toContain('bags (integer)> ');
    expect(shown).toContain('That does not fit');
  });

  it('location: "lat,lng", checked for range, or denied', async () => {
    const given = await answer(elicitOf('location', { accuracy: 'low' }), '48.85, 2.35');
    const refused = await answer(elicitOf('location', { accuracy: 'high' }), '95,0', 'denied');
    expect(given.response).toEqual({ action: 'accept', content: { lat: 48.85, lng: 2.35 } });
    expect(refused.response).toEqual({ action: 'denied' });
    expect(refused.shown).toContain('That does not fit: content.lat');
  });

  it('clipboard-read and clipboard-write: text, success, or denied', async () => {
    const read = await answer(elicitOf('clipboard-read', {}), 'copied words');
    const readDenied = await answer(elicitOf('clipboard-read', {}), 'denied');
    const written = await answer(elicitOf('clipboard-write', { text: 'line one\nline two' }), '');
    const writeDenied = await answer(elicitOf('clipboard-write', { text: 'x' }), 'deny');
    expect([read, readDenied, written, writeDenied].map((a) => a.response)).toEqual([
      { action: 'accept', content: { text: 'copied words' } },
      { action: 'denied' },
      { action: 'accept', content: { success: true } },
      { action: 'denied' },
    ]);
    expect(written.shown).toContain('| line one\n  | line two');
  });
});

describe('CliElicits, leaving a question', () => {
  it('answers /decline and /cancel at any prompt, and /deny where the device is asked', async () => {
    const confirm = elicitOf('confirm', { default: false });
    const responses = await Promise.all(
      ['/decline', '/cancel'].map(async (line) => (await answer(confirm, line)).response),
    );
    expect(responses).toEqual([{ action: 'decline' }, { action: 'cancel' }]);
    const location = await answer(elicitOf('location', { accuracy: 'low' }), '/deny');
    expect(location.response).toEqual({ action: 'denied' });
  });

  it('refuses /deny where nothing of the device is asked, saying what the question takes, and asks again', async () => {
    const { response, shown } = await answer(elicitOf('confirm', { default: false }), '/deny', '/decline');
    expect(response).toEqual({ action: 'decline' });
    expect(shown).toContain(
      'a confirm question is not answered denied: it takes accept, decline, cancel, other',
    );
  });

  it('goes off-script with "?": the text after it, or the next line when it stands alone', async () => {
    const inline = await answer(elicitOf('confirm', { default: false }), '? what is this for');
    const alone = await answer(elicitOf('free-text', {}), '?', '', 'wait, a question');
    expect(inline.response).toEqual({ action: 'other', content: { text: 'what is this for' } });
    expect(alone.response).toEqual({ action: 'other', content: { text: 'wait, a question' } });
    expect(alone.shown).toContain('say> ');
  });

  it('cancels when the input ends', async () => {
    const t = terminal([], { end: true });
    expect(await run(() => t.cli.ask(elicitOf('free-text', {})))).toEqual({ action: 'cancel' });
  });
});

describe('CliElicits as the elicit protocol implementation', () => {
  it('answers through the protocol, naming who answered', async () => {
    const t = terminal(['n'], { answeredBy: 'user:cli' });
    const response = await run(() =>
      ElicitProtocol.with(t.cli.implementation, function* () {
        const handle = yield* ElicitProtocol.attach();
        return yield* handle.call('elicit', elicitOf('confirm', { default: true }));
      }),
    );
    expect(response).toEqual({ action: 'accept', content: { value: false }, answeredBy: 'user:cli' });
  });

  it('says so when a question is withdrawn while it waits, and leaves the next line for the next one', async () => {
    const t = terminal([]);
    const next = await run(function* () {
      yield* ElicitProtocol.with(t.cli.implementation, function* () {
        const handle = yield* ElicitProtocol.attach();
        const waiting = yield* spawn(() => handle.call('elicit', elicitOf('confirm', { default: true })));
        yield* sleep(0);
        yield* waiting.halt();
      });
      t.input.write('kept\n');
      return yield* t.cli.ask(elicitOf('free-text', {}));
    });
    expect(await t.shown()).toContain('(the question was withdrawn)');
    expect(next).toEqual({ action: 'accept', content: { text: 'kept' } });
  });
});
