import type { PipeTransform } from '@nestjs/common';
import type * as z from 'zod';
import { parseOrThrow } from './field-problems';

/**
 * Validates a body or query with one of libs/domain's wire schemas, answering PROTOCOL.md's 400
 * (each bad field named in `details`) before the handler runs. Use as `@Body(new ZodPipe(Schema))`.
 */
export class ZodPipe<S extends z.ZodType> implements PipeTransform<unknown, z.infer<S>> {
  constructor(
    private readonly schema: S,
    private readonly whole: 'body' | 'query' = 'body',
  ) {}

  transform(value: unknown): z.infer<S> {
    return parseOrThrow(this.schema, value, this.whole);
  }
}
