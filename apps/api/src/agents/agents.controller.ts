import { Controller, Inject } from '@nestjs/common';
import type { AgentCatalog } from '@sweatpants/agent-runtime/host';
import { HTTP_CONTRACT } from '@sweatpants/domain';
import { Endpoint, type EndpointReply } from '../http/endpoint';
import { AGENT_CATALOG } from './agent-catalog.module';

/** `GET /api/agents` (PROTOCOL.md, Conversations): the agents registered in this deployment. */
@Controller()
export class AgentsController {
  constructor(@Inject(AGENT_CATALOG) private readonly agents: AgentCatalog) {}

  @Endpoint(HTTP_CONTRACT.agents)
  list(): EndpointReply<typeof HTTP_CONTRACT.agents.reply> {
    return { items: this.agents.list() };
  }
}
