import { Controller } from '@nestjs/common';
import { HTTP_CONTRACT } from '@sweatpants/domain';
import { Public } from '../auth/auth.decorators';
import { Endpoint, type EndpointReply } from '../http/endpoint';

/**
 * `GET /api/health/live` for a process that serves nothing else: the worker. 200 while it runs;
 * a worker is ready whenever it is live (it takes jobs when it can, and they wait in Redis until).
 */
@Public()
@Controller()
export class LivenessController {
  @Endpoint(HTTP_CONTRACT.liveness)
  live(): EndpointReply<typeof HTTP_CONTRACT.liveness.reply> {
    return { status: 'ok' };
  }
}
