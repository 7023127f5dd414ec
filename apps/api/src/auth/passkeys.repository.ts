import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { err, ok, type Passkey, type Result } from '@sweatpants/domain';
import type { SqlClient, SqlExecutor } from '@sweatpants/tree-store';
import { SQL_CLIENT } from '../database/database.module';
import { SignInWays } from './sign-in-ways';

/** A passkey with what verifying its signatures needs: its key, counter and transports. */
export interface StoredPasskey {
  id: string;
  userId: string;
  name: string;
  /** the credential's id as the browser names it (base64url) */
  credentialId: string;
  /** COSE, as the authenticator gave it */
  publicKey: Uint8Array<ArrayBuffer>;
  counter: number;
  transports: string[];
}

interface PasskeyRow {
  id: string;
  user_id: string;
  name: string;
  credential_id: string;
  public_key: Buffer;
  counter: string | number;
  transports: string[];
  created_at: Date | string;
  last_used_at: Date | string | null;
}

const COLUMNS = 'id, user_id, name, credential_id, public_key, counter, transports, created_at, last_used_at';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** PostgreSQL's unique_violation: the credential is someone's already. */
const UNIQUE_VIOLATION = '23505';

const iso = (value: Date | string): string => new Date(value).toISOString();

const toPasskey = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: iso(row.created_at),
  lastUsedAt: row.last_used_at === null ? null : iso(row.last_used_at),
});

const toStored = (row: PasskeyRow): StoredPasskey => ({
  id: row.id,
  userId: row.user_id,
  name: row.name,
  credentialId: row.credential_id,
  publicKey: new Uint8Array(row.public_key),
  counter: Number(row.counter),
  transports: row.transports,
});

/** The `passkeys` table (Passkeys1795540000000), in plain parameterised SQL. */
@Injectable()
export class PasskeysRepository {
  constructor(
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    private readonly ways: SignInWays,
  ) {}

  /** A verified new passkey of the account's; `exists` when the credential is anyone's already. */
  async add(
    userId: string,
    passkey: Omit<StoredPasskey, 'id' | 'userId' | 'publicKey'> & { publicKey: Uint8Array },
  ): Promise<Result<Passkey, 'exists'>> {
    try {
      const [row] = await this.db.query<PasskeyRow>(
        `INSERT INTO passkeys (id, user_id, name, credential_id, public_key, counter, transports)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
        [
          randomUUID(),
          userId,
          passkey.name,
          passkey.credentialId,
          Buffer.from(passkey.publicKey),
          passkey.counter,
          passkey.transports,
        ],
      );
      if (!row) throw new Error('INSERT ... RETURNING returned nothing');
      return ok(toPasskey(row));
    } catch (error) {
      if (isUniqueViolation(error)) return err('exists');
      throw error;
    }
  }

  /** The account's passkeys, newest first. */
  async list(userId: string): Promise<Passkey[]> {
    return (await this.rows(userId)).map(toPasskey);
  }

  /** The account's passkeys with their keys, for the options that exclude them from a new one. */
  async stored(userId: string): Promise<StoredPasskey[]> {
    return (await this.rows(userId)).map(toStored);
  }

  /** The passkey the browser names `credentialId`, whoever's it is; null when there is none. */
  async byCredentialId(credentialId: string): Promise<StoredPasskey | null> {
    const [row] = await this.db.query<PasskeyRow>(
      `SELECT ${COLUMNS} FROM passkeys WHERE credential_id = $1`,
      [credentialId],
    );
    return row ? toStored(row) : null;
  }

  /**
   * Notes a sign-in with the passkey and its authenticator's new counter. The counter only moves
   * on: of two sign-ins racing, the lower counter does not overwrite the higher.
   */
  async used(id: string, counter: number): Promise<void> {
    await this.db.query(
      `UPDATE passkeys SET last_used_at = now(), counter = greatest(counter, $2) WHERE id = $1`,
      [id, counter],
    );
  }

  /**
   * Removes the account's passkey `id`, unless it is the account's last way to sign in: the
   * account's row is locked while its ways are counted, so two removals at once cannot leave it
   * with none. Answers the removed passkey's name.
   */
  remove(userId: string, id: string): Promise<Result<string, 'not_found' | 'last_way'>> {
    if (!UUID.test(id)) return Promise.resolve(err('not_found'));
    return this.db.transaction(async (tx) => {
      const ways = await this.ways.count(tx, userId, { lock: true });
      const [row] = await tx.query<{ name: string }>(
        `SELECT name FROM passkeys WHERE id = $1 AND user_id = $2`,
        [id, userId],
      );
      if (!row) return err('not_found');
      if (ways <= 1) return err('last_way');
      await tx.query(`DELETE FROM passkeys WHERE id = $1`, [id]);
      return ok(row.name);
    });
  }

  private rows(userId: string, db: SqlExecutor = this.db): Promise<PasskeyRow[]> {
    return db.query<PasskeyRow>(
      `SELECT ${COLUMNS} FROM passkeys WHERE user_id = $1 ORDER BY created_at DESC, id`,
      [userId],
    );
  }
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === UNIQUE_VIOLATION;
}
