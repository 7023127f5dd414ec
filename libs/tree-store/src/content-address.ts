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
export function canonicalJson(value: unknown): string {
  try {
    return canonical(value);
  } catch (error) {
    if (error instanceof Unstorable) throw new UnstorableContentError(`$${error.at.join('')}`);
    throw error;
  }
}

/**
 * Where unstorable text was found, as the path's segments innermost first, each level adding its
 * own on the way out. Every node of every write is hashed, so the path is only ever spelled out for
 * the one value that is refused.
 */
class Unstorable {
  readonly at: string[] = [];
}

const storable = (text: string) => !text.includes('\u0000') && text.isWellFormed();

function canonical(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      if (!storable(value)) throw new Unstorable();
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new Unstorable();
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (Array.isArray(value)) {
        let text = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) text += ',';
          text += within(value[i], i);
        }
        return `${text}]`;
      }
      const object = value as Record<string, unknown>;
      let text = '{';
      for (const key of Object.keys(object).sort()) {
        const v = object[key];
        if (v === undefined) continue;
        if (!storable(key)) {
          const at = new Unstorable();
          at.at.unshift(`.${key}`);
          throw at;
        }
        if (text.length > 1) text += ',';
        text += `${JSON.stringify(key)}:${within(v, key)}`;
      }
      return `${text}}`;
    }
    default:
      throw new Unstorable();
  }
}

/** `value`'s canonical text; a refusal inside it adds where it is (an index or a key) on its way out. */
function within(value: unknown, at: number | string): string {
  try {
    return canonical(value);
  } catch (error) {
    if (error instanceof Unstorable) error.at.unshift(typeof at === 'number' ? `[${at}]` : `.${at}`);
    throw error;
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
