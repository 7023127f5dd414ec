import type { Json } from '@sweatpants/domain';

/**
 * A typed answer as the wire's Json: optional fields left undefined are dropped, exactly as
 * JSON.stringify would drop them on the way out anyway.
 */
export function toJson(value: object): Json {
  return JSON.parse(JSON.stringify(value)) as Json;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
