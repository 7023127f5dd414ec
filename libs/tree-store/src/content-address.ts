import { createHash } from 'node:crypto';
import type { Json, NodeKind } from '@sweatpants/domain';

/** What a node's id is a hash of: its parent, so a path is a hash chain, and all of its content. */
export interface NodeContent {
  parentId: string | null;
  kind: NodeKind;
  payload: Json;
  authorId: string;
  createdAt: string;
}

/** Thrown for content the database could not store faithfully (a NUL or a lone surrogate in text). */
export class UnstorableContentError extends Error {
  constructor(readonly path: string) {
    super(`${path} holds text that cannot be stored (a NUL character or a lone surrogate)`);
  }
}

/**
 * JSON with object keys sorted at every level and no white space, so equal content always has
 * equal text, however it was built or however the database's jsonb returns it.
 */
export function canonicalJson(value: unknown, path = '$'): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      if (value.includes('\u0000') || !value.isWellFormed()) throw new UnstorableContentError(path);
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new UnstorableContentError(path);
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (Array.isArray(value))
        return `[${value.map((v, i) => canonicalJson(v, `${path}[${i}]`)).join(',')}]`;
      const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries
        .map(([k, v]) => {
          if (k.includes('\u0000') || !k.isWellFormed()) throw new UnstorableContentError(`${path}.${k}`);
          return `${JSON.stringify(k)}:${canonicalJson(v, `${path}.${k}`)}`;
        })
        .join(',')}}`;
    }
    default:
      throw new UnstorableContentError(path);
  }
}

/** A node's id: the hex sha-256 of its canonical content. */
export function nodeId(content: NodeContent): string {
  return createHash('sha256')
    .update(
      canonicalJson({
        authorId: content.authorId,
        createdAt: content.createdAt,
        kind: content.kind,
        parentId: content.parentId,
        payload: content.payload,
      }),
    )
    .digest('hex');
}
