import { Controller } from '@nestjs/common';
import { HTTP_CONTRACT } from '@sweatpants/domain';
import { AccountEvents } from '../auth/account-events';
import { AdminOnly } from '../auth/auth.decorators';
import { Endpoint, Input, type EndpointInput, type EndpointResult } from '../http/endpoint';

const { adminAccountEvents } = HTTP_CONTRACT;

/** The admins' audit of accounts: sign-ins, passkeys added and removed, sessions revoked. */
@AdminOnly()
@Controller()
export class AccountEventsController {
  constructor(private readonly events: AccountEvents) {}

  /** `GET /api/admin/account-events` → `{items, next}`, newest first. */
  @Endpoint(adminAccountEvents)
  page(
    @Input() { query }: EndpointInput<typeof adminAccountEvents>,
  ): EndpointResult<typeof adminAccountEvents> {
    return this.events.page(query);
  }
}
