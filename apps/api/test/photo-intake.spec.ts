import type { InlinePhoto, NodeAndHead, Photo, TreeNode } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { createConversation, path, settled } from './support/flows';
import { call, errorOf, register, startApi, type TestApi } from './support/test-api';

/** A JPEG as a phone takes it: large, on its side (EXIF orientation 6), with where it was taken. */
async function phonePhoto(width: number, height: number): Promise<InlinePhoto> {
  const jpeg = await sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'Phone', Model: 'Pocket 9' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 26/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 39/1',
      },
    })
    .toBuffer();
  return { mediaType: 'image/jpeg', data: jpeg.toString('base64') };
}

describe('photos as they arrive: checked by their bytes, scaled, without metadata', () => {
  let db: TestDatabase;
  let api: TestApi;
  let token: string;

  beforeAll(async () => {
    db = await createTestDatabase('api_photo_intake');
    api = await startApi({ DATABASE_URL: db.url, GC_EVERY_MINUTES: 'off' });
    token = (await register(api, 'photographer')).token;
  }, 30_000);

  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  const send = (id: string, photos: InlinePhoto[]) =>
    call<NodeAndHead>(api, 'POST', `/api/conversations/${id}/messages`, {
      token,
      body: { text: 'my desk', photos },
    });
  /** The node's photo and its bytes as `GET /api/blobs/:sha256` serves them. */
  const storedPhoto = async (node: TreeNode) => {
    const photo = (node.payload as { photos: Photo[] }).photos[0]!;
    const res = await fetch(api.url(`/api/blobs/${photo.sha256}`), {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    return { photo, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  it('stores a phone photo upright, at most 2048 px, with no EXIF (no GPS position)', async () => {
    const c = await createConversation(api, token);
    const original = await phonePhoto(4000, 3000);
    expect((await sharp(Buffer.from(original.data, 'base64')).metadata()).exif).toBeDefined();
    const sent = await send(c.id, [original]);
    expect(sent.status).toBe(201);
    const { photo, bytes } = await storedPhoto(sent.body.node);
    const meta = await sharp(bytes).metadata();
    expect(photo).toEqual({
      sha256: createHash('sha256').update(bytes).digest('hex'),
      mediaType: 'image/jpeg',
      bytes: bytes.length,
      width: 1536,
      height: 2048,
    });
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    // Turned upright (orientation 6 is a quarter turn): 4000×3000 on its side is 3000 wide, 4000 tall.
    expect([meta.width, meta.height]).toEqual([1536, 2048]);
    expect(bytes.toString('latin1')).not.toContain('Pocket 9');
    await settled(api, token, c.id);
  });

  it('stores the same photo sent twice as the same bytes', async () => {
    const one = await createConversation(api, token);
    const two = await createConversation(api, token);
    const original = await phonePhoto(640, 480);
    const first = await storedPhoto((await send(one.id, [original])).body.node);
    const second = await storedPhoto((await send(two.id, [original])).body.node);
    expect(second.photo).toEqual(first.photo);
    expect(second.bytes.equals(first.bytes)).toBe(true);
    await settled(api, token, one.id);
    await settled(api, token, two.id);
  });

  it('refuses what is not the image it says, or too large, naming the photo, and stores nothing', async () => {
    const c = await createConversation(api, token);
    const before = (await path(api, token, c.id)).length;
    const text = {
      mediaType: 'image/png' as const,
      data: Buffer.from('just some words, renamed .png').toString('base64'),
    };
    const renamed = await send(c.id, [text]);
    expect(renamed).toEqual({ status: 400, body: errorOf('invalid_request') });
    expect(renamed.body).toMatchObject({
      error: { details: [{ field: 'photos.0', message: 'is not a JPEG, PNG, WebP or GIF image' }] },
    });
    const jpeg = await phonePhoto(32, 32);
    const mislabelled = await send(c.id, [{ mediaType: 'image/png', data: jpeg.data }]);
    expect(mislabelled.status).toBe(400);
    expect(mislabelled.body).toMatchObject({
      error: { details: [{ field: 'photos.0', message: 'is image/jpeg, not image/png' }] },
    });
    const huge = await send(c.id, [
      { mediaType: 'image/png', data: Buffer.alloc(11 * 1024 * 1024, 7).toString('base64') },
    ]);
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ error: { code: 'too_large', details: [{ field: 'photos.0' }] } });
    expect((await path(api, token, c.id)).length).toBe(before);
  });
});
