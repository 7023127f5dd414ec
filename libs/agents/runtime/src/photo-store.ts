import type { InlinePhoto, Photo } from '@sweatpants/domain';
import { createContext, type Operation } from 'effection';

/**
 * Where an image a tool got (an MCP server's answer, say) is kept as a photo: the host's blob
 * store, with the same checks as a photo a person sends. A node names it by its `Photo`, never
 * holds its bytes, so the tree stays small and the image is read like any other photo.
 */
export interface PhotoStore {
  /** the image stored, or null when it is refused (not an image, too large, of another format) */
  keep(image: InlinePhoto): Promise<Photo | null>;
}

/**
 * The photo store of the turn, set by the host through the Runner's `provide` option; absent (a
 * spec, a host with no blob store), images a tool gets are named in words only.
 */
export const PhotoStoreContext = createContext<PhotoStore | null>('sweatpants.photo-store', null);

/**
 * The Runner's `provide` for a host that keeps images: `provide: providePhotoStore(store)`.
 *
 * @example
 * const provide = providePhotoStore({ keep: (image) => intake.store(image, 'image').catch(() => null) });
 */
export function providePhotoStore(store: PhotoStore): () => Operation<void> {
  return function* () {
    yield* PhotoStoreContext.set(store);
  };
}
