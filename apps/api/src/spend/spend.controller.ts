import { Controller } from '@nestjs/common';
import { HTTP_CONTRACT, type PersonSpend } from '@sweatpants/domain';
import type { AuthUser } from '../auth/auth-user';
import { AdminOnly, CurrentUser } from '../auth/auth.decorators';
import { ApiError } from '../errors/api-error';
import { Endpoint, Input, type EndpointInput, type EndpointResult } from '../http/endpoint';
import { SpendLedger } from './spend-ledger';
import { SpendLimits } from './spend-limits';

const { adminSpend, setSpendLimit, clearSpendLimit } = HTTP_CONTRACT;

/** Spend for admins: what each person's model calls cost today and this month, and their budgets. */
@AdminOnly()
@Controller()
export class SpendController {
  constructor(
    private readonly ledger: SpendLedger,
    private readonly limits: SpendLimits,
  ) {}

  @Endpoint(adminSpend)
  async report(@Input() { query }: EndpointInput<typeof adminSpend>): EndpointResult<typeof adminSpend> {
    const defaults = this.limits.defaults;
    return { defaults, items: await this.ledger.people(defaults, query.limit) };
  }

  @Endpoint(setSpendLimit)
  async set(
    @CurrentUser() admin: AuthUser,
    @Input() { params, body }: EndpointInput<typeof setSpendLimit>,
  ): EndpointResult<typeof setSpendLimit> {
    if (!(await this.ledger.setLimit(params.userId, body, admin.id))) throw notFound();
    return this.person(params.userId);
  }

  @Endpoint(clearSpendLimit)
  async clear(
    @Input() { params }: EndpointInput<typeof clearSpendLimit>,
  ): EndpointResult<typeof clearSpendLimit> {
    await this.ledger.clearLimit(params.userId);
    return this.person(params.userId);
  }

  private async person(userId: string): Promise<PersonSpend> {
    const person = await this.ledger.person(userId, this.limits.defaults);
    if (!person) throw notFound();
    return person;
  }
}

const notFound = () => new ApiError('not_found', 'no such user');
