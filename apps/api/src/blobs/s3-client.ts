import {
  BucketAlreadyOwnedByYou,
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';

/** Where objects go: a bucket at an S3-compatible endpoint (AWS, MinIO, Ceph, R2…). */
export interface S3Location {
  bucket: string;
  /** e.g. http://minio:9000; unset: AWS's own endpoint for the region */
  endpoint: string | undefined;
  region: string;
  forcePathStyle: boolean;
}

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string | undefined;
}

/** An object operation that has not answered in this long is failed rather than waited for. */
const TIMEOUT_MS = 30_000;

/**
 * The four object operations the blob store needs (put, get, delete, and making the bucket for a
 * test or a first start), through AWS's own client, so signing, retries and the quirks of
 * S3-compatible servers are the SDK's business.
 */
export class S3ObjectClient {
  private readonly client: S3Client;

  constructor(
    private readonly location: S3Location,
    credentials: S3Credentials,
  ) {
    this.client = new S3Client({
      region: location.region,
      endpoint: location.endpoint,
      forcePathStyle: location.forcePathStyle,
      credentials,
      // The SDK's default checksums (CRC32 trailers) are newer than some S3-compatible servers;
      // ask for them only where the operation requires one.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.location.bucket, Key: key, Body: body, ContentType: contentType }),
      { abortSignal: AbortSignal.timeout(TIMEOUT_MS) },
    );
  }

  /** The object's bytes, or null when there is no such object. */
  async get(key: string): Promise<Buffer | null> {
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.location.bucket, Key: key }),
        {
          abortSignal: AbortSignal.timeout(TIMEOUT_MS),
        },
      );
      return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : null;
    } catch (error) {
      if (error instanceof NoSuchKey) return null;
      throw error;
    }
  }

  /** Deletes the object; S3 answers success for one that is not there. */
  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key: key }), {
      abortSignal: AbortSignal.timeout(TIMEOUT_MS),
    });
  }

  /** Creates the bucket; one that exists and is ours is fine. */
  async createBucket(): Promise<void> {
    try {
      await this.client.send(new CreateBucketCommand({ Bucket: this.location.bucket }));
    } catch (error) {
      if (!(error instanceof BucketAlreadyOwnedByYou)) throw error;
    }
  }

  close(): void {
    this.client.destroy();
  }
}
