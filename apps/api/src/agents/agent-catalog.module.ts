import { Module } from '@nestjs/common';
import { productAgents } from '@sweatpants/product-agents';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/** Injection token of the program's AgentCatalog: the agents this deployment runs. */
export const AGENT_CATALOG = Symbol('AgentCatalog');

/**
 * The agents exposed at the program level (seed 004's `server.use`): the api and the worker each
 * build the catalog once, at start-up, and refuse to start if an agent cannot run as the api's
 * conversations. An agent is added by exposing it in `exposeProductAgents`.
 */
@Module({
  providers: [
    {
      provide: AGENT_CATALOG,
      // The assistant uses the deployment's MCP servers (MCP_SERVERS).
      useFactory: (config: AppConfig) =>
        productAgents({ mcpServers: config.mcpServers, mcpTimeoutMs: config.mcpTimeoutMs }),
      inject: [APP_CONFIG],
    },
  ],
  exports: [AGENT_CATALOG],
})
export class AgentCatalogModule {}
