import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { err, ok, type Result } from '@sweatpants/domain';
import type { SqlClient } from '@sweatpants/tree-store';
import { SQL_CLIENT } from '../database/database.module';

/** An account as stored: the hash never leaves the auth module. */
export interface Account {
  id: string;
  email: string;
  displayName: string;
  /** null: the account has no password (it signs in with a passkey, or an identity provider) */
  passwordHash: string | null;
  createdAt: string;
  /** tokens signed in an earlier generation are refused (see the TokenGenerations migration) */
  tokenGeneration: number;
  /** when the current email was proven; null until it is (EmailVerification1795530000000) */
  emailVerifiedAt: string | null;
  emailVerified: boolean;
}

interface AccountRow {
  id: string;
  email: string;
  display_name: string;
  password_hash: string | null;
  created_at: Date | string;
  token_generation: number;
  email_verified_at: Date | string | null;
}

const COLUMNS = 'id, email, display_name, password_hash, created_at, token_generation, email_verified_at';

const toAccount = (row: AccountRow): Account => ({
  id: row.id,
  email: row.email,
  displayName: row.display_name,
  passwordHash: row.password_hash,
  createdAt: new Date(row.created_at).toISOString(),
  tokenGeneration: row.token_generation,
  emailVerifiedAt: row.email_verified_at === null ? null : new Date(row.email_verified_at).toISOString(),
  emailVerified: row.email_verified_at !== null,
});

/** PostgreSQL's unique_violation: the case-insensitive email index refused a second account. */
const UNIQUE_VIOLATION = '23505';

/** The `users` table, in plain parameterised SQL like the tree store. */
@Injectable()
export class UsersRepository {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  /**
   * A new account; `email_taken` when the address is registered already, whatever its case.
   * `emailProven`: someone trusted has vouched for the address already (an identity provider).
   */
  async create(input: {
    email: string;
    displayName: string;
    /** null: no password (an account an identity provider made) */
    passwordHash: string | null;
    emailProven?: boolean;
  }): Promise<Result<Account, 'email_taken'>> {
    try {
      const [row] = await this.db.query<AccountRow>(
        `INSERT INTO users (id, email, display_name, password_hash, email_verified_at)
         VALUES ($1, $2, $3, $4, CASE WHEN $5::boolean THEN clock_timestamp() END)
         RETURNING ${COLUMNS}`,
        [randomUUID(), input.email, input.displayName, input.passwordHash, input.emailProven === true],
      );
      if (!row) throw new Error('INSERT ... RETURNING returned nothing');
      return ok(toAccount(row));
    } catch (error) {
      if (isUniqueViolation(error)) return err('email_taken');
      throw error;
    }
  }

  /** The account registered under `email`, compared without case. */
  async byEmail(email: string): Promise<Account | null> {
    const [row] = await this.db.query<AccountRow>(
      `SELECT ${COLUMNS} FROM users WHERE lower(email) = lower($1)`,
      [email],
    );
    return row ? toAccount(row) : null;
  }

  async byId(id: string): Promise<Account | null> {
    const [row] = await this.db.query<AccountRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]);
    return row ? toAccount(row) : null;
  }

  /** The account's token generation; null when there is no such account (deleted, or never was). */
  async tokenGeneration(id: string): Promise<number | null> {
    const [row] = await this.db.query<{ token_generation: number }>(
      `SELECT token_generation FROM users WHERE id = $1`,
      [id],
    );
    return row ? row.token_generation : null;
  }

  /**
   * Moves the account to a new token generation, with a new password hash when given: every token
   * signed before is refused from now on. Returns the account as it now is.
   */
  async revokeTokens(id: string, passwordHash?: string): Promise<Account | null> {
    const [row] = await this.db.query<AccountRow>(
      `UPDATE users SET token_generation = token_generation + 1, password_hash = coalesce($2, password_hash)
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, passwordHash ?? null],
    );
    return row ? toAccount(row) : null;
  }

  /**
   * A new address, unproven, and a new token generation (every earlier token named the old
   * address); `email_taken` when another account has it, whatever its case.
   */
  async changeEmail(id: string, email: string): Promise<Result<Account | null, 'email_taken'>> {
    try {
      const [row] = await this.db.query<AccountRow>(
        `UPDATE users SET email = $2, email_verified_at = NULL, token_generation = token_generation + 1
         WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, email],
      );
      return ok(row ? toAccount(row) : null);
    } catch (error) {
      if (isUniqueViolation(error)) return err('email_taken');
      throw error;
    }
  }

  /** The account's address `email` is proven (a link mailed to it was opened); false when it is not theirs now. */
  async markEmailVerified(id: string, email: string): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE users SET email_verified_at = coalesce(email_verified_at, now())
       WHERE id = $1 AND lower(email) = lower($2) RETURNING id`,
      [id, email],
    );
    return rows.length > 0;
  }
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === UNIQUE_VIOLATION;
}
