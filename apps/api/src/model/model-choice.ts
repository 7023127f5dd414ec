import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Health } from '@sweatpants/domain';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/** Which model answers: Claude when ANTHROPIC_API_KEY is set, else the offline model (DESIGN.md). */
@Injectable()
export class ModelChoice {
  readonly kind: Health['model'];
  readonly apiKey: string | undefined;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.apiKey = config.anthropicApiKey;
    this.kind = this.apiKey === undefined ? 'offline' : 'claude';
    const logger = new Logger('Model');
    if (this.kind === 'offline') logger.log('ANTHROPIC_API_KEY unset: using the offline model');
    else logger.log('using Claude');
  }
}
