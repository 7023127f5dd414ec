import { Inject, Injectable } from '@nestjs/common';
import type { InlinePhoto, Photo } from '@sweatpants/domain';
import sharp from 'sharp';
import { ApiError } from '../errors/api-error';
import { BLOB_STORE, type BlobStore } from './blob-store';

/** A phone's photo is 3–12 MB; past this a photo is refused rather than decoded. */
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
/** The longest edge kept: the model sees no more, and a person's screen rarely shows more. */
export const MAX_PHOTO_EDGE = 2048;

/** The image formats sharp reads that a person may send, and their media types. */
const MEDIA_TYPES: Record<string, Photo['mediaType']> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
};

/**
 * What happens to a photo as it arrives, before anything else sees it: its bytes are checked to be
 * the image its media type says (sharp reads the real header: a text file named .png is refused,
 * and so is a JPEG labelled PNG, rather than silently relabelled, because a client that mislabels
 * is broken and should hear so), its size is bounded, it is turned upright by its EXIF
 * orientation, scaled so its longest edge is at most MAX_PHOTO_EDGE, and written again without
 * any metadata, so a phone's GPS position is never stored or served. The result is stored once in
 * the blob store, and what the node holds is its Photo: `{sha256, mediaType, bytes, width, height}`.
 * The same photo sent twice comes out the same bytes, so it is the same blob.
 */
@Injectable()
export class PhotoIntake {
  constructor(@Inject(BLOB_STORE) private readonly blobs: BlobStore) {}

  /** Each photo prepared and stored; a bad one is a 400 (413 when too large) naming `field.<index>`. */
  async storeAll(photos: readonly InlinePhoto[] | undefined, field: string): Promise<Photo[] | undefined> {
    if (!photos) return undefined;
    // Checked and encoded one at a time: each may take a few hundred MB of pixels while sharp works.
    const stored: Photo[] = [];
    for (const [i, photo] of photos.entries()) stored.push(await this.store(photo, `${field}.${i}`));
    return stored;
  }

  async store(photo: InlinePhoto, field: string): Promise<Photo> {
    const prepared = await this.prepare(photo, field);
    return this.blobs.put(prepared.data, prepared);
  }

  /** The photo checked, upright, scaled and without metadata; nothing stored. */
  async prepare(
    photo: InlinePhoto,
    field: string,
  ): Promise<{ mediaType: Photo['mediaType']; data: Buffer; width: number; height: number }> {
    // A base64 string decodes to at most 3/4 of its length: refuse a huge one before decoding it.
    if (photo.data.length > (MAX_PHOTO_BYTES / 3) * 4 + 4) throw tooLarge(field);
    const bytes = Buffer.from(photo.data, 'base64');
    if (bytes.length === 0 || bytes.toString('base64').replace(/=+$/, '') !== photo.data.replace(/=+$/, '')) {
      throw refuse(field, 'is not base64 image data');
    }
    if (bytes.length > MAX_PHOTO_BYTES) throw tooLarge(field);
    const format = await sharp(bytes)
      .metadata()
      .then((m) => m.format)
      .catch(() => undefined);
    const actual = format ? MEDIA_TYPES[format] : undefined;
    if (!actual) throw refuse(field, 'is not a JPEG, PNG, WebP or GIF image');
    if (actual !== photo.mediaType) throw refuse(field, `is ${actual}, not ${photo.mediaType}`);
    const image = sharp(bytes, { animated: actual === 'image/gif' })
      .rotate()
      .resize({ width: MAX_PHOTO_EDGE, height: MAX_PHOTO_EDGE, fit: 'inside', withoutEnlargement: true });
    const { data, info } = await reencode(image, actual)
      .toBuffer({ resolveWithObject: true })
      .catch(() => {
        throw refuse(field, 'could not be read as an image');
      });
    // An animated GIF's height is the whole strip of frames; one frame's is pageHeight.
    return { mediaType: actual, data, width: info.width, height: info.pageHeight ?? info.height };
  }
}

/** Written again in its own format; sharp keeps no metadata unless asked to (withMetadata). */
function reencode(image: sharp.Sharp, mediaType: Photo['mediaType']): sharp.Sharp {
  switch (mediaType) {
    case 'image/jpeg':
      return image.jpeg({ quality: 85, mozjpeg: true });
    case 'image/png':
      return image.png();
    case 'image/webp':
      return image.webp({ quality: 85 });
    case 'image/gif':
      return image.gif();
  }
}

function refuse(field: string, message: string): ApiError {
  return new ApiError('invalid_request', `a photo ${message}`, [{ field, message }]);
}

function tooLarge(field: string): ApiError {
  const mb = MAX_PHOTO_BYTES / 1024 / 1024;
  return new ApiError('too_large', `a photo may be at most ${mb} MB`, [
    { field, message: `is over ${mb} MB` },
  ]);
}
