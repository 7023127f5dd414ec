import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@sweatpants/domain';

/** A passkey this authenticator keeps: an ES256 key pair, for one relying party and one account. */
interface Kept {
  id: Uint8Array;
  privateKey: KeyObject;
  rpId: string;
  /** the account's user handle, base64url, as the creation options gave it */
  userHandle: string;
  counter: number;
}

/** Where the browser says a ceremony happens: its page's origin, and the relying party id it uses. */
export interface Place {
  origin: string;
  rpId?: string;
}

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_CREDENTIAL = 0x40;

const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();
const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
/** What the WebAuthn library's CBOR encoder takes (a Map's keys are strings or numbers). */
type Cbor = Parameters<typeof isoCBOR.encode>[0];
const uint32 = (value: number): Buffer => {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value);
  return out;
};

/**
 * A platform authenticator in software, as a browser with a passkey provider behaves: it makes
 * discoverable ES256 credentials with `none` attestation and signs assertions with them, with the
 * user present and verified. Its answers are the JSON `startRegistration` and `startAuthentication`
 * give the page, so they go to the api as a browser's would; every signature is real (node:crypto),
 * so the server's WebAuthn checks run in full. `place` lets a spec answer as another site would.
 */
export class SoftwareAuthenticator {
  private readonly kept: Kept[] = [];

  constructor(private readonly origin: string) {}

  /** `navigator.credentials.create` with the api's options: a new passkey, and the browser's answer. */
  register(
    options: PublicKeyCredentialCreationOptionsJSON,
    place: Partial<Place> = {},
  ): RegistrationResponseJSON {
    const rpId = place.rpId ?? options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<string | number, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, isoBase64URL.toBuffer(jwk.x ?? '')],
        [-3, isoBase64URL.toBuffer(jwk.y ?? '')],
      ]),
    );
    const id = new Uint8Array(randomBytes(32));
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([FLAG_USER_PRESENT | FLAG_USER_VERIFIED | FLAG_ATTESTED_CREDENTIAL]),
      uint32(0),
      Buffer.alloc(16), // AAGUID: none said
      idLength,
      id,
      cose,
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string | number, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    this.kept.push({ id, privateKey, rpId, userHandle: options.user.id, counter: 0 });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge, place.origin),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /**
   * `navigator.credentials.get` with the api's options: the newest passkey kept for the relying
   * party signs the challenge (a discoverable credential: the options name none).
   */
  authenticate(
    options: PublicKeyCredentialRequestOptionsJSON,
    place: Partial<Place> = {},
  ): AuthenticationResponseJSON {
    const rpId = place.rpId ?? options.rpId ?? new URL(this.origin).hostname;
    const passkey = this.kept.findLast((kept) => kept.rpId === (options.rpId ?? rpId));
    if (!passkey) throw new Error(`no passkey kept for ${rpId}`);
    passkey.counter += 1;
    const authenticatorData = Buffer.concat([
      sha256(rpId),
      Buffer.from([FLAG_USER_PRESENT | FLAG_USER_VERIFIED]),
      uint32(passkey.counter),
    ]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, place.origin);
    const signature = sign(
      'sha256',
      Buffer.concat([authenticatorData, sha256(isoBase64URL.toBuffer(clientDataJSON))]),
      passkey.privateKey,
    );
    return {
      id: b64url(passkey.id),
      rawId: b64url(passkey.id),
      type: 'public-key',
      response: {
        clientDataJSON,
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        userHandle: passkey.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** The passkeys it keeps, newest last: a spec may forget one (a device lost) or reuse it. */
  get count(): number {
    return this.kept.length;
  }

  private clientData(type: string, challenge: string, origin = this.origin): string {
    return isoBase64URL.fromUTF8String(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }
}
