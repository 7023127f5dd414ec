import { Inject, Injectable, Logger } from '@nestjs/common';
import * as z from 'zod';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { jwtVerify, SignJWT } from './jose';
import { signingSecret } from './signing-secret';

/** Who issued a token and for whom: a token minted for anything else is refused. */
export const TOKEN_ISSUER = 'sweatpants';
export const TOKEN_AUDIENCE = 'sweatpants-api';
const ALGORITHM = 'HS256';

/** What a token says about its holder; the role is not in it (ADMIN_EMAILS decides at each use). */
export interface TokenSubject {
  id: string;
  email: string;
  displayName: string;
  /** the account's token generation when it was signed (tokens from before generations: 0) */
  tokenGeneration: number;
  /**
   * Whether the email was proven when it was signed. Proving it moves nothing on, so a token of
   * before says false until the session's next refresh (an access token lives an hour at most).
   */
  emailVerified: boolean;
  /** the session (refresh-token family) it was given to; none in tokens signed before sessions had ids */
  sessionId?: string;
}

const ClaimsSchema = z.object({
  sub: z.string().min(1),
  email: z.string(),
  name: z.string(),
  gen: z.number().int().nonnegative().default(0),
  ev: z.boolean().default(false),
  sid: z.string().min(1).optional(),
});

/**
 * Signs and checks the api's bearer tokens: HS256 with JWT_SECRET, short-lived, bound to this
 * issuer and audience. Without JWT_SECRET the secret is made once and kept in DATA_DIR (see
 * signing-secret.ts); the log says where.
 */
@Injectable()
export class TokenSigner {
  private readonly key: Uint8Array;
  private readonly ttlSeconds: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const { secret, source } = signingSecret(config.jwtSecret, config.dataDir);
    if (source.kind === 'file') {
      new Logger('Auth').warn(
        `JWT_SECRET unset: signing tokens with the secret ${source.created ? 'made now and kept' : 'kept'} ` +
          `in ${source.path} (readable by this user only); set JWT_SECRET when api processes do not share that directory`,
      );
    }
    this.key = new TextEncoder().encode(secret);
    this.ttlSeconds = config.tokenTtlSeconds;
  }

  sign(subject: TokenSubject): Promise<string> {
    return new SignJWT({
      email: subject.email,
      name: subject.displayName,
      gen: subject.tokenGeneration,
      ev: subject.emailVerified,
      ...(subject.sessionId !== undefined ? { sid: subject.sessionId } : {}),
    })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(subject.id)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.key);
  }

  /** The subject of a valid token; null for a bad signature, algorithm, issuer, audience or an expired one. */
  async verify(token: string): Promise<TokenSubject | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      const claims = ClaimsSchema.safeParse(payload);
      if (!claims.success) return null;
      return {
        id: claims.data.sub,
        email: claims.data.email,
        displayName: claims.data.name,
        tokenGeneration: claims.data.gen,
        emailVerified: claims.data.ev,
        ...(claims.data.sid !== undefined ? { sessionId: claims.data.sid } : {}),
      };
    } catch {
      // jose throws for every way a token can be wrong; each means the same here: not signed in.
      return null;
    }
  }
}
