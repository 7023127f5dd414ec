import { createInterface, type Interface } from 'node:readline';
import type { Readable } from 'node:stream';
import { action, type Operation } from 'effection';

/**
 * Lines from a stream, one at a time, as an effection operation. Lines that arrive before anyone
 * asks (a paste, a script piped in, a test writing ahead) are kept in order, not dropped as
 * readline's own `question` would drop them. Halting a read leaves the next line for the next one.
 */
export class LineReader {
  private readonly buffered: string[] = [];
  private waiting: ((line: string | null) => void) | undefined;
  private ended = false;
  private readonly lines: Interface;

  constructor(input: Readable) {
    // Not a terminal interface: the terminal echoes in cooked mode, and prompts are plain writes.
    this.lines = createInterface({ input, crlfDelay: Infinity, terminal: false });
    this.lines.on('line', (line) => {
      const wake = this.waiting;
      this.waiting = undefined;
      if (wake) wake(line);
      else this.buffered.push(line);
    });
    this.lines.on('close', () => {
      this.ended = true;
      const wake = this.waiting;
      this.waiting = undefined;
      wake?.(null);
    });
  }

  /** The next line without its line ending; null once the input has ended. */
  next(): Operation<string | null> {
    return action<string | null>((resolve) => {
      const line = this.buffered.shift();
      if (line !== undefined) resolve(line);
      else if (this.ended) resolve(null);
      else this.waiting = resolve;
      return () => {
        if (this.waiting === resolve) this.waiting = undefined;
      };
    });
  }

  /** Stops reading the input (it is not closed: stdin belongs to the process). */
  close(): void {
    this.lines.close();
  }
}
