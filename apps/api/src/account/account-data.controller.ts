import type { ServerResponse } from 'node:http';
import { Controller, Logger, Res } from '@nestjs/common';
import { exportFileName, HTTP_CONTRACT } from '@sweatpants/domain';
import type { AuthUser } from '../auth/auth-user';
import { AdminOnly, CurrentUser, SessionOnly } from '../auth/auth.decorators';
import { AuthService } from '../auth/auth.service';
import { UsersRepository } from '../auth/users.repository';
import { ApiError } from '../errors/api-error';
import { Endpoint, Input, type EndpointInput, type EndpointResult } from '../http/endpoint';
import { AccountDeletion } from './account-deletion';
import { AccountExport } from './account-export';

const { exportAccount, deleteAccount, deleteUser } = HTTP_CONTRACT;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** PROTOCOL.md, Account (export, deletion) and the admin's deletion of any account. */
@Controller()
export class AccountDataController {
  private readonly logger = new Logger('Accounts');

  constructor(
    private readonly auth: AuthService,
    private readonly users: UsersRepository,
    private readonly exporter: AccountExport,
    private readonly deletion: AccountDeletion,
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

  /**
   * `DELETE /api/account {password}` → 204: the account and everything it owns go; its tokens stop
   * working. A wrong password is a 400 naming `password`, as for a password change (PROTOCOL.md's
   * 403 says a role may not do something; here the person may, and one field is wrong), and
   * nothing changes.
   */
  @SessionOnly()
  @Endpoint(deleteAccount)
  async deleteOwn(
    @CurrentUser() user: AuthUser,
    @Input() { body }: EndpointInput<typeof deleteAccount>,
  ): EndpointResult<typeof deleteAccount> {
    if (!(await this.auth.checkPassword(user.id, body.password))) {
      throw new ApiError('invalid_request', 'the password is not right', [
        { field: 'password', message: 'is not your password' },
      ]);
    }
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
