import { createHash, createHmac } from 'node:crypto';

/** Where objects go: a bucket at an S3-compatible endpoint (AWS, MinIO, Ceph, R2…). */
export interface S3Location {
  bucket: string;
  /** e.g. http://minio:9000; unset: `https://s3.<region>.amazonaws.com` */
  endpoint: string | undefined;
  region: string;
  forcePathStyle: boolean;
}

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string | undefined;
}

/** An answer the store did not expect; `status` is the HTTP status, 0 when nothing answered. */
export class S3Error extends Error {
  override readonly name = 'S3Error';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const EMPTY_SHA256 = createHash('sha256').update('').digest('hex');
/** An object operation that has not answered in this long is failed rather than waited for. */
const TIMEOUT_MS = 30_000;

/**
 * The four object operations the blob store needs (put, get, delete, and making the bucket for a
 * test or a first start), as plain HTTP requests signed with AWS Signature Version 4.
 *
 * Why not @aws-sdk/client-s3: it is not among the project's installed packages, and these calls
 * are all the store makes; the signing below is AWS's documented algorithm, checked against AWS's
 * own worked example in s3-client.spec.ts and against a real S3-compatible server in
 * blob-store-adapters.spec.ts.
 */
export class S3ObjectClient {
  constructor(
    private readonly location: S3Location,
    private readonly credentials: S3Credentials,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const res = await this.send('PUT', key, body, { 'content-type': contentType });
    if (!res.ok) throw await failure('PUT', key, res);
  }

  /** The object's bytes, or null when there is no such object. */
  async get(key: string): Promise<Buffer | null> {
    const res = await this.send('GET', key);
    if (res.status === 404) return null;
    if (!res.ok) throw await failure('GET', key, res);
    return Buffer.from(await res.arrayBuffer());
  }

  /** Deletes the object; one that is not there is already deleted. */
  async delete(key: string): Promise<void> {
    const res = await this.send('DELETE', key);
    if (!res.ok && res.status !== 404) throw await failure('DELETE', key, res);
  }

  /** Creates the bucket; one that exists and is ours is fine. */
  async createBucket(): Promise<void> {
    const res = await this.send('PUT', null);
    if (res.ok) return;
    const text = await res.text();
    if (res.status === 409 && /BucketAlreadyOwnedByYou/.test(text)) return;
    throw new S3Error(
      `creating bucket ${this.location.bucket}: ${res.status} ${errorCode(text)}`,
      res.status,
    );
  }

  private async send(
    method: string,
    key: string | null,
    body?: Buffer,
    extra: Record<string, string> = {},
  ): Promise<Response> {
    const url = this.urlOf(key);
    const headers = signedHeaders({
      method,
      url,
      headers: extra,
      payloadSha256: body ? createHash('sha256').update(body).digest('hex') : EMPTY_SHA256,
      region: this.location.region,
      credentials: this.credentials,
      now: this.now(),
    });
    try {
      return await fetch(url, {
        method,
        headers,
        ...(body ? { body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength) } : {}),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new S3Error(
        `${method} ${url.pathname}: ${error instanceof Error ? error.message : String(error)}`,
        0,
      );
    }
  }

  private urlOf(key: string | null): URL {
    const { bucket, endpoint, region, forcePathStyle } = this.location;
    const base = new URL(endpoint ?? `https://s3.${region}.amazonaws.com`);
    const path = key === null ? '' : `/${encodeKey(key)}`;
    if (forcePathStyle) return new URL(`${base.origin}/${bucket}${path}`);
    return new URL(`${base.protocol}//${bucket}.${base.host}${path || '/'}`);
  }
}

/** A key as S3 wants it in a path: each segment URI-encoded, slashes kept. */
export function encodeKey(key: string): string {
  return key
    .split('/')
    .map((segment) =>
      encodeURIComponent(segment).replace(
        /[!'()*]/g,
        (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
      ),
    )
    .join('/');
}

export interface SigningInput {
  method: string;
  url: URL;
  /** headers to send and sign besides host and the x-amz ones; lower-case names */
  headers: Record<string, string>;
  payloadSha256: string;
  region: string;
  credentials: S3Credentials;
  now: Date;
}

/**
 * The request's headers with AWS Signature Version 4's `Authorization` (service `s3`): every
 * header sent is signed, the payload by its sha-256. The host is the URL's, as fetch sends it.
 */
export function signedHeaders(input: SigningInput): Record<string, string> {
  const amzDate = input.now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {
    ...Object.fromEntries(Object.entries(input.headers).map(([k, v]) => [k.toLowerCase(), v])),
    host: input.url.host,
    'x-amz-content-sha256': input.payloadSha256,
    'x-amz-date': amzDate,
    ...(input.credentials.sessionToken ? { 'x-amz-security-token': input.credentials.sessionToken } : {}),
  };
  const entries = Object.entries(headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const names = entries.map(([name]) => name);
  const canonicalRequest = [
    input.method,
    input.url.pathname,
    canonicalQuery(input.url.searchParams),
    ...entries.map(([name, value]) => `${name}:${value.trim().replace(/\s+/g, ' ')}`),
    '',
    names.join(';'),
    input.payloadSha256,
  ].join('\n');
  const scope = `${day}/${input.region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, hex(canonicalRequest)].join('\n');
  let key: Buffer = hmac(`AWS4${input.credentials.secretAccessKey}`, day);
  for (const part of [input.region, 's3', 'aws4_request']) key = hmac(key, part);
  const signature = createHmac('sha256', key).update(stringToSign).digest('hex');
  const { host: _host, ...sent } = headers;
  return {
    ...sent,
    authorization:
      `AWS4-HMAC-SHA256 Credential=${input.credentials.accessKeyId}/${scope}, ` +
      `SignedHeaders=${names.join(';')}, Signature=${signature}`,
  };
}

function canonicalQuery(params: URLSearchParams): string {
  const enc = (s: string) => encodeKey(s).replace(/\//g, '%2F');
  return [...params]
    .map(([k, v]) => [enc(k), enc(v)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

function hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

async function failure(method: string, key: string, res: Response): Promise<S3Error> {
  return new S3Error(`${method} ${key}: ${res.status} ${errorCode(await res.text())}`, res.status);
}

/** S3's error code from its XML body (never the body itself: it may echo the request). */
function errorCode(xml: string): string {
  return /<Code>([^<]{1,100})<\/Code>/.exec(xml)?.[1] ?? 'no error code';
}
