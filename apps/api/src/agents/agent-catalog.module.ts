import { Module } from '@nestjs/common';
import { productAgents } from '@sweatpants/product-agents';

/** Injection token of the program's AgentCatalog: the agents this deployment runs. */
export const AGENT_CATALOG = Symbol('AgentCatalog');

/**
 * The agents exposed at the program level (seed 004's `server.use`): the api and the worker each
 * build the catalog once, at start-up, and refuse to start if an agent cannot run as the api's
 * conversations. An agent is added by exposing it in `exposeProductAgents`.
 */
@Module({
  providers: [{ provide: AGENT_CATALOG, useFactory: productAgents }],
  exports: [AGENT_CATALOG],
})
export class AgentCatalogModule {}
