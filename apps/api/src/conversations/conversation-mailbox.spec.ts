import { ConversationMailboxes } from './conversation-mailbox';

/** Work that records when it starts and ends, and ends when the test says. */
function step(log: string[], name: string) {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const work = async () => {
    log.push(`${name} starts`);
    await done;
    log.push(`${name} ends`);
    return name;
  };
  return { work, finish: () => finish() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('a conversation mailbox', () => {
  it("runs a conversation's work one at a time, in the order it was posted", async () => {
    const mailboxes = new ConversationMailboxes();
    const log: string[] = [];
    const a = step(log, 'a');
    const b = step(log, 'b');
    const c = step(log, 'c');
    const results = [a, b, c].map((s) => mailboxes.post('c1', s.work));
    await tick();
    expect(log).toEqual(['a starts']);
    c.finish();
    b.finish();
    a.finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['a starts', 'a ends', 'b starts', 'b ends', 'c starts', 'c ends']);
  });

  it('lets other conversations run meanwhile', async () => {
    const mailboxes = new ConversationMailboxes();
    const log: string[] = [];
    const slow = step(log, 'slow');
    const other = step(log, 'other');
    const first = mailboxes.post('c1', slow.work);
    const second = mailboxes.post('c2', other.work);
    other.finish();
    await second;
    expect(log).toEqual(['slow starts', 'other starts', 'other ends']);
    slow.finish();
    await first;
  });

  it('goes on after work that failed, and hands the failure to whoever posted it', async () => {
    const mailboxes = new ConversationMailboxes();
    const failed = mailboxes.post('c1', () => Promise.reject(new Error('no such node')));
    const next = mailboxes.post('c1', async () => 'next');
    await expect(failed).rejects.toThrow('no such node');
    await expect(next).resolves.toBe('next');
  });
});
