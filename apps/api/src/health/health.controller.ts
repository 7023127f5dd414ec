import { Controller, Get } from '@nestjs/common';
import type { Health } from '@sweatpants/domain';
import { Public } from '../auth/auth.decorators';
import { HealthService } from './health.service';

@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** `GET /api/health`: 200 with what the api runs on, or 503 when the db or Redis is down. */
  @Get()
  check(): Promise<Health> {
    return this.health.check();
  }
}
