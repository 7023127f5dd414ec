import { encodeKey, signedHeaders } from './s3-client';

describe('S3 requests signed with Signature Version 4', () => {
  it("signs AWS's own worked example (GET /test.txt with a Range) to the documented signature", () => {
    // From AWS's S3 documentation, "Signature Calculations for the Authorization Header:
    // Transferring Payload in a Single Chunk", example GET Object.
    const headers = signedHeaders({
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
      headers: { range: 'bytes=0-9' },
      payloadSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      region: 'us-east-1',
      credentials: {
        accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      },
      now: new Date('2013-05-24T00:00:00Z'),
    });
    expect(headers).toEqual({
      range: 'bytes=0-9',
      'x-amz-content-sha256': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      'x-amz-date': '20130524T000000Z',
      authorization:
        'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, ' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    });
  });

  it('encodes a key segment by segment, keeping its slashes', () => {
    expect(encodeKey("photos/a b+c(1)*'!.jpg")).toBe('photos/a%20b%2Bc%281%29%2A%27%21.jpg');
  });
});
