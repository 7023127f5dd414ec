import { randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { readZip } from './support/read-zip';
import { ZipWriter } from '../src/account/zip-writer';

const MB = 1024 * 1024;

/** A download on a slow line: it takes each chunk on a later turn, and keeps what it took. */
class SlowDownload extends Writable {
  readonly chunks: Buffer[] = [];
  received = 0;

  constructor(private readonly cutAfter = Infinity) {
    super({ highWaterMark: 16 * 1024 });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error) => void): void {
    this.chunks.push(chunk);
    this.received += chunk.length;
    // The person closes the tab halfway: the connection goes, nothing more is taken.
    if (this.received > this.cutAfter) {
      done();
      this.destroy();
      return;
    }
    setImmediate(done);
  }
}

describe('ZipWriter', () => {
  it('holds an entry until its bytes have gone out, and ends with a zip any unzip reads', async () => {
    const out = new SlowDownload();
    const zip = new ZipWriter(out);
    const photo = randomBytes(4 * MB); // incompressible: what goes out is about what came in
    await zip.add('photos/a.bin', photo);
    // Taken only once (nearly) all of it passed the output: the rest is a few stream buffers.
    expect(out.received).toBeGreaterThan(photo.length - MB);
    let pages = 0;
    await zip.add(
      'tree.json',
      Readable.from(
        (async function* () {
          for (; pages < 3; pages++) yield `{"page":${pages}}\n`;
        })(),
      ),
    );
    await zip.add('README.md', 'hello');
    await zip.finish();
    const entries = readZip(Buffer.concat(out.chunks));
    expect([...entries.keys()]).toEqual(['photos/a.bin', 'tree.json', 'README.md']);
    expect(entries.get('photos/a.bin')!.equals(photo)).toBe(true);
    expect(entries.get('tree.json')!.toString()).toBe('{"page":0}\n{"page":1}\n{"page":2}\n');
  });

  it('stops when the download is closed: what waits and what comes are refused, the source is read no further', async () => {
    const out = new SlowDownload(MB);
    const zip = new ZipWriter(out);
    let pulled = 0;
    const source = Readable.from(
      (async function* () {
        for (; pulled < 1000; pulled++) yield randomBytes(64 * 1024);
      })(),
    );
    await expect(zip.add('tree.json', source)).rejects.toThrow(/closed before the archive was complete/);
    expect(pulled).toBeLessThan(1000);
    await expect(zip.add('README.md', 'more')).rejects.toThrow(/closed/);
    await expect(zip.finish()).rejects.toThrow(/closed/);
    expect(out.destroyed).toBe(true);
  });
});
