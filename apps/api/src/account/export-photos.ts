import { PhotoSchema } from '@sweatpants/domain';

/** A photo as the archive holds it: `photos/<sha256>.<ext>`, one file however often it was sent. */
export interface PhotoFile {
  sha256: string;
  mediaType: string;
}

/**
 * The export's photo step, from a photo as a node holds it (a content-addressed blob, PROTOCOL.md
 * Photo): which file it is (cheap: it names the file and links it from the transcript) and its
 * bytes (read from the blob store once per file, when it is written).
 */
export interface ExportPhotos {
  identify(photo: unknown): PhotoFile | null;
  photoBytes(photo: unknown): Promise<Buffer | null>;
}

/** Injection token of the export's ExportPhotos (see account.module.ts). */
export const EXPORT_PHOTOS = Symbol('ExportPhotos');

/** Reads a content-addressed blob's bytes by its sha-256; null when the store has none. */
export type BlobBytes = (sha256: string) => Promise<Buffer | null>;

/**
 * Photos named by their sha-256, their bytes read through `blobBytes`. A photo whose bytes the
 * store lacks is left out of the archive, and the transcript says a photo was sent without linking
 * a file that is not there.
 */
export function exportPhotos(blobBytes: BlobBytes): ExportPhotos {
  const identify = (photo: unknown): PhotoFile | null => {
    const parsed = PhotoSchema.safeParse(photo);
    return parsed.success ? { sha256: parsed.data.sha256, mediaType: parsed.data.mediaType } : null;
  };
  return {
    identify,
    async photoBytes(photo) {
      const file = identify(photo);
      return file ? blobBytes(file.sha256) : null;
    },
  };
}

/** The photos a node's payload carries: a message's, or those of an answer in the person's own words. */
export function photosIn(payload: unknown): unknown[] {
  const own = field(payload, 'photos');
  const answered = field(field(payload, 'content'), 'photos');
  return [...(Array.isArray(own) ? own : []), ...(Array.isArray(answered) ? answered : [])];
}

/** A photo's file extension by media type; `bin` for one the intake would not have let in. */
export function extensionOf(mediaType: string): string {
  return EXTENSIONS[mediaType] ?? 'bin';
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}
