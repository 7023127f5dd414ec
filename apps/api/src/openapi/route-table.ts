import { HTTP_CONTRACT, ROUTE_NAMES, type HttpRoute, type RouteName } from '@sweatpants/domain';

/** A route of the contract with its name, as the OpenAPI document and the specs walk them. */
export type RouteSpec = HttpRoute & { readonly name: RouteName };

/**
 * Every route of the HTTP contract (libs/domain's HTTP_CONTRACT), in PROTOCOL.md's order.
 * `/api/docs-json` is generated from it; test/http-contract.spec.ts holds the controllers to it.
 */
export const ROUTES: readonly RouteSpec[] = ROUTE_NAMES.map((name) => ({ ...HTTP_CONTRACT[name], name }));
