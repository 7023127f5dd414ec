import type { ServerResponse } from 'node:http';
import { Controller, Logger, Res } from '@nestjs/common';
import { exportFileName, HTTP_CONTRACT } from '@sweatpants/domain';
import type { AuthUser } from '../auth/auth-user';
import { AdminOnly, CurrentUser, SessionOnly } from '../auth/auth.decorators';
import { UsersRepository } from '../auth/users.repository';
import { ApiError } from '../errors/api-error';
import { Endpoint, Input, type EndpointInput, type EndpointResult } from '../http/endpoint';
import { AccountDeletion } from './account-deletion';
import { AccountExport } from './account-export';
import { DeletionConfirmation } from './deletion-confirmation';

const { exportAccount, accountDeletion, deleteAccount, deleteUser } = HTTP_CONTRACT;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** PROTOCOL.md, Account (export, deletion) and the admin's deletion of any account. */
@Controller()
export class AccountDataController {
  private readonly logger = new Logger('Accounts');

  constructor(
    private readonly users: UsersRepository,
    private readonly exporter: AccountExport,
    private readonly deletion: AccountDeletion,
    private readonly confirmation: DeletionConfirmation,
  ) {}

  /** `GET /api/account/export` → a zip of everything the caller has, downloaded as a file. */
  @Endpoint(exportAccount)
  async export(
    @CurrentUser() user: AuthUser,
    @Res() res: ServerResponse,
  ): EndpointResult<typeof exportAccount> {
    const account = await this.users.byId(user.id);
    if (!account) throw new ApiError('not_found', 'no such account');
    res.setHeader('Content-Type', 'application/zip');
    res.setHeader('Content-Disposition', `attachment; filename="${exportFileName()}"`);
    res.setHeader('Cache-Control', 'no-store');
    try {
      await this.exporter.write(account, res);
    } catch (error) {
      // The status went with the first bytes: the writer has cut the connection, so the client
      // sees a failed download rather than a short zip. Nothing more can be said to it.
      if (!res.headersSent) throw error;
      this.logger.warn(
        `export for ${user.id} stopped: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** `GET /api/account/deletion` → how deleting the caller's account is confirmed (DeletionConfirmation). */
  @Endpoint(accountDeletion)
  deletionInfo(@CurrentUser() user: AuthUser): EndpointResult<typeof accountDeletion> {
    return this.confirmation.how(user);
  }

  /**
   * `DELETE /api/account {password}` → 204: the account and everything it owns go; its tokens stop
   * working. A wrong password is a 400 naming `password`, as for a password change (PROTOCOL.md's
   * 403 says a role may not do something; here the person may, and one field is wrong), and
   * nothing changes. An account without a password is confirmed by a recent sign-in instead.
   */
  @SessionOnly()
  @Endpoint(deleteAccount)
  async deleteOwn(
    @CurrentUser() user: AuthUser,
    @Input() { body }: EndpointInput<typeof deleteAccount>,
  ): EndpointResult<typeof deleteAccount> {
    await this.confirmation.confirm(user, body.password);
    await this.deletion.delete(user.id, 'self');
  }

  /** `DELETE /api/admin/users/:userId` → 204, as above for any account; an unknown one is a 404. */
  @AdminOnly()
  @Endpoint(deleteUser)
  async deleteAny(
    @CurrentUser() admin: AuthUser,
    @Input() { params }: EndpointInput<typeof deleteUser>,
  ): EndpointResult<typeof deleteUser> {
    if (!UUID.test(params.userId) || !(await this.deletion.delete(params.userId, admin.id))) {
      throw new ApiError('not_found', 'no such user');
    }
  }
}
