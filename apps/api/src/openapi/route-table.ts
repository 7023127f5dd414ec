import {
  AuthResponseSchema,
  ChangePasswordRequestSchema,
  HealthSchema,
  LivenessSchema,
  LoginRequestSchema,
  ReadinessSchema,
  RegisterRequestSchema,
  UserSchema,
} from '@sweatpants/domain';
import { ACCOUNT_AND_ADMIN_ROUTES } from './account-admin-routes';
import { CONVERSATION_ROUTES } from './conversation-routes';
import type { RouteSpec } from './route-spec';

export type { RouteSpec } from './route-spec';

/** PROTOCOL.md, Health and Auth (with the account's own token routes beyond it). */
const HEALTH_AND_AUTH_ROUTES: RouteSpec[] = [
  {
    method: 'get',
    path: '/api/health',
    tag: 'health',
    summary: 'What the api runs on',
    access: 'public',
    status: 200,
    response: 'Health',
    responseSchema: HealthSchema,
  },
  {
    method: 'get',
    path: '/api/health/live',
    tag: 'health',
    summary: 'The process runs',
    description: 'For a liveness probe: asks nothing of the database or Redis.',
    access: 'public',
    status: 200,
    response: "{status: 'ok'}",
    responseSchema: LivenessSchema,
  },
  {
    method: 'get',
    path: '/api/health/ready',
    tag: 'health',
    summary: 'The process can serve',
    description:
      'For a readiness probe: 200 when the database answers with every migration applied (and Redis, when jobs run through it); else 503 `unavailable` naming what is not ready.',
    access: 'public',
    status: 200,
    response: "{status: 'ok', db: 'ok', migrations: 'ok', queue: 'ok' | 'in-process'}",
    responseSchema: ReadinessSchema,
  },
  {
    method: 'get',
    path: '/api/metrics',
    tag: 'health',
    summary: 'Prometheus metrics',
    description:
      'Prometheus text: turn, model-call and question-wait durations, open runners, leases held and taken over, sockets, jobs by state and outcome, gc removals, and the process. For loopback callers, or with `Authorization: Bearer <METRICS_TOKEN>`; else 403.',
    access: 'public',
    status: 200,
    response: 'text/plain (Prometheus exposition format)',
  },
  {
    method: 'post',
    path: '/api/auth/register',
    tag: 'auth',
    summary: 'Create an account',
    access: 'public',
    body: RegisterRequestSchema,
    status: 201,
    response: '{token, user}',
    responseSchema: AuthResponseSchema,
  },
  {
    method: 'post',
    path: '/api/auth/login',
    tag: 'auth',
    summary: 'Sign in',
    access: 'public',
    body: LoginRequestSchema,
    status: 200,
    response: '{token, user}',
    responseSchema: AuthResponseSchema,
  },
  {
    method: 'get',
    path: '/api/auth/me',
    tag: 'auth',
    summary: 'The caller',
    access: 'user',
    status: 200,
    response: 'User',
    responseSchema: UserSchema,
  },
  {
    method: 'post',
    path: '/api/auth/sign-out-everywhere',
    tag: 'auth',
    summary: 'Sign out everywhere',
    description:
      "Beyond PROTOCOL.md. Every token of the caller's account issued so far stops working, this one included, and their sockets close, on every api process: the answer comes once Redis carries the revocation to the others (should it be lost, another process may accept an old token for up to 5 seconds).",
    access: 'user',
    status: 204,
    response: '(empty)',
  },
  {
    method: 'post',
    path: '/api/account/password',
    tag: 'auth',
    summary: 'Change the password',
    description:
      'Beyond PROTOCOL.md. The current password confirms it; every earlier token stops working and the answer carries a fresh one. A wrong current password is a 400 naming `currentPassword`.',
    access: 'user',
    body: ChangePasswordRequestSchema,
    status: 200,
    response: '{token, user}',
    responseSchema: AuthResponseSchema,
  },
];

/**
 * Every route of PROTOCOL.md, in the order the document lists them. `/api/docs-json` is generated
 * from this table.
 */
export const ROUTES: RouteSpec[] = [
  ...HEALTH_AND_AUTH_ROUTES,
  ...CONVERSATION_ROUTES,
  ...ACCOUNT_AND_ADMIN_ROUTES,
];
