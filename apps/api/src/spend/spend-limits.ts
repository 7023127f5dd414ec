import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Model } from '@sweatpants/agent-runtime/host';
import type { SpendLimit } from '@sweatpants/domain';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Metrics } from '../observability/metrics';
import { SpendLedger } from './spend-ledger';
import { spendLimitedModel, type SpendReports } from './spend-limited-model';

/**
 * Spend limits per person: the deployment's default budget (SPEND_LIMIT_DAILY_USD,
 * SPEND_LIMIT_MONTHLY_USD), and each conversation's model held to its owner's budget.
 */
@Injectable()
export class SpendLimits {
  private readonly logger = new Logger('Spend');
  private readonly reports: SpendReports;

  constructor(
    private readonly ledger: SpendLedger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    metrics: Metrics,
  ) {
    this.reports = {
      spent: (model, usd) => metrics.modelSpent(model, usd),
      refused: (reason) => metrics.spendRefused(reason),
      warn: (message) => this.logger.warn(message),
    };
    const { dailyUsd, monthlyUsd } = config.spendLimit;
    if (dailyUsd !== null || monthlyUsd !== null) {
      this.logger.log(
        `each person's default budget: ${dailyUsd === null ? 'no daily limit' : `$${dailyUsd} a day`}, ${monthlyUsd === null ? 'no monthly limit' : `$${monthlyUsd} a month`}`,
      );
    }
  }

  /** The deployment's default budget. */
  get defaults(): SpendLimit {
    return this.config.spendLimit;
  }

  /** `model` as `ownerId`'s conversation `conversationId` calls it: each call within their budget. */
  limited(model: Model, ownerId: string, conversationId: string): Model {
    return spendLimitedModel(model, {
      userId: ownerId,
      conversationId,
      ledger: this.ledger,
      defaults: () => this.defaults,
      reports: this.reports,
    });
  }
}
