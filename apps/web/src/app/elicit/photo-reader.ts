import { type Photo, PhotoSchema } from '@sweatpants/domain';

type MediaType = Photo['mediaType'];
const ACCEPTED = PhotoSchema.shape.mediaType.options as readonly string[];
/** Phone cameras take 4–12 MB photos; the agent needs far less, and the api caps a request's size. */
const MAX_EDGE = 1600;
const SHRINK_ABOVE_BYTES = 1_500_000;

/** A chosen photo, ready to send: base64 without the data: prefix, and a preview URL. */
export interface PhotoDraft {
  name: string;
  photo: Photo;
  previewUrl: string;
}

/** Reads an image file as PROTOCOL.md's `{mediaType, data}`, shrinking large ones where it can. */
export async function readPhoto(file: File): Promise<PhotoDraft> {
  if (!ACCEPTED.includes(file.type)) {
    throw new Error(`${file.name || 'That file'} is not a JPEG, PNG, WebP or GIF image.`);
  }
  const dataUrl = (file.size > SHRINK_ABOVE_BYTES ? await shrink(file) : null) ?? (await readAsDataUrl(file));
  const match = /^data:([^;]+);base64,(.*)$/.exec(dataUrl);
  if (!match?.[1] || !match[2]) throw new Error(`Could not read ${file.name || 'the photo'}.`);
  return {
    name: file.name,
    photo: { mediaType: match[1] as MediaType, data: match[2] },
    previewUrl: dataUrl,
  };
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
