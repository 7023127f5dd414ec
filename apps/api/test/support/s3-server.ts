import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { S3ObjectClient } from '../../src/blobs/s3-client';

/** s3rver's fixed credentials: it checks signatures with these. */
export const S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface S3Server {
  endpoint: string;
  /** BLOB_STORE_URL for `bucket` here, as a deployment would set it */
  blobStoreUrl(bucket: string, prefix?: string): string;
  /** the bucket made, and a client to look inside it */
  bucket(name: string): Promise<S3ObjectClient>;
  stop(): Promise<void>;
}

/**
 * A real S3-compatible server on a free loopback port (s3rver, from npm), its objects in a fresh
 * directory that goes when it stops.
 */
export async function startS3(): Promise<S3Server> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const clients: S3ObjectClient[] = [];
  return {
    endpoint,
    blobStoreUrl: (bucket, prefix = '') =>
      `s3://${bucket}/${prefix}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&forcePathStyle=true`,
    async bucket(name) {
      const client = new S3ObjectClient(
        { bucket: name, endpoint, region: 'us-east-1', forcePathStyle: true },
        S3_CREDENTIALS,
      );
      await client.createBucket();
      clients.push(client);
      return client;
    },
    async stop() {
      for (const client of clients) client.close();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
