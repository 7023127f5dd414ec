import { type InlinePhoto, PhotoMediaTypeSchema } from '@sweatpants/domain';

type MediaType = InlinePhoto['mediaType'];
const ACCEPTED = PhotoMediaTypeSchema.options as readonly string[];
/** Phone cameras take 4–12 MB photos; the agent needs far less, and the api caps a request's size. */
const MAX_EDGE = 1600;
const SHRINK_ABOVE_BYTES = 1_500_000;

/** A chosen photo, ready to send: base64 without the data: prefix, and a preview URL. */
export interface PhotoDraft {
  name: string;
  photo: InlinePhoto;
  previewUrl: string;
}

/** Reads an image file as PROTOCOL.md's `{mediaType, data}`, shrinking large ones where it can. */
export async function readPhoto(file: File): Promise<PhotoDraft> {
  // By its bytes, not its name: a text file renamed .png is refused here, before any upload.
  const sniffed = mediaTypeOf(await headOf(file));
  if (!sniffed || !ACCEPTED.includes(sniffed)) {
    throw new Error(`${file.name || 'That file'} is not a JPEG, PNG, WebP or GIF image.`);
  }
  const shrunk = file.size > SHRINK_ABOVE_BYTES ? await shrink(file) : null;
  const data = /^data:[^;]+;base64,(.*)$/.exec(shrunk ?? (await readAsDataUrl(file)))?.[1];
  if (!data) throw new Error(`Could not read ${file.name || 'the photo'}.`);
  // The type the bytes are, whatever the file's name or the browser's guess said.
  const mediaType: MediaType = shrunk ? 'image/jpeg' : sniffed;
  return { name: file.name, photo: { mediaType, data }, previewUrl: `data:${mediaType};base64,${data}` };
}

/** A file's first twelve bytes (Blob.arrayBuffer is missing from older browsers and jsdom). */
async function headOf(file: Blob): Promise<Uint8Array> {
  const head = file.slice(0, 12);
  if (typeof head.arrayBuffer === 'function') return new Uint8Array(await head.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file.'));
    reader.readAsArrayBuffer(head);
  });
}

/** The image type a file's first bytes say it is (its magic number), or null. */
export function mediaTypeOf(head: Uint8Array): MediaType | null {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  const riff = starts(0x52, 0x49, 0x46, 0x46);
  const webp = head[8] === 0x57 && head[9] === 0x45 && head[10] === 0x42 && head[11] === 0x50;
  return riff && webp ? 'image/webp' : null;
}

function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file.'));
    reader.readAsDataURL(file);
  });
}

/** Redraws the photo at most MAX_EDGE wide or high as a JPEG; null where the browser cannot. */
async function shrink(file: File): Promise<string | null> {
  if (typeof createImageBitmap !== 'function' || typeof document === 'undefined') return null;
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, MAX_EDGE / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    const context = canvas.getContext('2d');
    if (!context) return null;
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    return canvas.toDataURL('image/jpeg', 0.85);
  } catch {
    return null;
  }
}
