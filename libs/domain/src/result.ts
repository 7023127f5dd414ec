/** An expected outcome, success or a named failure: callers branch on `ok`, nothing is thrown. */
export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
export const err = <E>(error: E): { ok: false; error: E } => ({ ok: false, error });

/** One bad field of a request: where it is (`payload.text`) and why it is wrong. */
export interface FieldProblem {
  field: string;
  message: string;
}
