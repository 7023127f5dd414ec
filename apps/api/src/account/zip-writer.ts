import type { Readable, Writable } from 'node:stream';
import archiver from 'archiver';

/** Entries a person reads (JSON, Markdown) compress well; photos are compressed already. */
const ZLIB_LEVEL = 6;

/**
 * A zip archive written to `out` as it is made, never held whole in memory. archiver queues what
 * it is given without bounds, so `add` resolves only once archiver has taken the entry in (its
 * bytes passed on through `out`'s backpressure): a caller that awaits each entry holds about one at
 * a time, however many conversations the archive has. A source may be a stream, read only when its
 * turn comes.
 *
 * When `out` closes early (the person cancelled the download) or archiver fails, every waiting and
 * later `add` rejects with that reason, so the export stops reading the database.
 */
export class ZipWriter {
  private readonly zip = archiver('zip', { zlib: { level: ZLIB_LEVEL } });
  private added = 0;
  private taken = 0;
  private readonly waiting: { entry: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  private failure: Error | null = null;
  private readonly written: Promise<void>;

  constructor(private readonly out: Writable) {
    this.zip.on('entry', () => {
      this.taken += 1;
      while (this.waiting[0] && this.waiting[0].entry <= this.taken) this.waiting.shift()?.resolve();
    });
    this.zip.on('error', (error: Error) => this.fail(error));
    // archiver warns of files it cannot stat; this writer gives it none, so a warning is a fault.
    this.zip.on('warning', (error: Error) => this.fail(error));
    this.written = new Promise<void>((resolve, reject) => {
      out.once('finish', resolve);
      out.once('close', () => {
        if (out.writableFinished) return resolve();
        const closed = new Error('the download was closed before the archive was complete');
        this.fail(closed);
        reject(closed);
      });
      out.on('error', (error: Error) => {
        this.fail(error);
        reject(error);
      });
    });
    // Settled through finish(); an early close is reported to whoever awaits an entry.
    this.written.catch(() => undefined);
    this.zip.pipe(out);
  }

  /** Adds an entry and resolves once it is written through; rejects once the archive failed. */
  add(name: string, source: string | Buffer | Readable): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    this.zip.append(source, { name });
    const entry = (this.added += 1);
    return new Promise((resolve, reject) => this.waiting.push({ entry, resolve, reject }));
  }

  /** Writes the central directory and resolves once `out` has everything. */
  async finish(): Promise<void> {
    if (this.failure) throw this.failure;
    await this.zip.finalize();
    await this.written;
  }

  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    for (const waiter of this.waiting.splice(0)) waiter.reject(error);
    // What was sent is not a whole zip: the client must see a failed download, not a short file.
    // Destroyed before archiver's abort, which would end `out` as if the archive were complete.
    if (!this.out.writableFinished) this.out.destroy(error);
    this.zip.abort();
  }
}
