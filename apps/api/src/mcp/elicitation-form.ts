import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitRequest, ElicitResponseRequest, Json } from '@sweatpants/domain';

/** The form an MCP client shows for a question, and how its answer becomes the question's. */
export interface ElicitationForm {
  params: ElicitRequestFormParams;
  /** the client's `accept` content as the question's own `content` */
  content(answer: Record<string, unknown>): Json;
}

/**
 * A question as MCP elicitation (`elicitation/create`, form mode) when it has a form shape:
 * `choose` a string enum whose options keep their labels (`oneOf` of `const` and `title`),
 * `confirm` a boolean, `free-text` a string, and a flat `form` its own schema. Null for the rest
 * (a proposal card, a photo, a place, the chat prompt): those wait for the person's own clients.
 *
 * @example
 * const form = elicitationForm(question);
 * if (form) {
 *   const result = await extra.sendRequest({ method: 'elicitation/create', params: form.params }, ElicitResultSchema);
 *   await commands.respond(user, record, question.elicitId, answerOf(form, result));
 * }
 */
export function elicitationForm(question: ElicitRequest): ElicitationForm | null {
  const message = question.message;
  const ask = (
    field: string,
    property: ElicitRequestFormParams['requestedSchema']['properties'][string],
    content: (value: unknown) => Json,
  ): ElicitationForm => ({
    params: {
      mode: 'form',
      message,
      requestedSchema: { type: 'object', properties: { [field]: property }, required: [field] },
    },
    content: (answer) => content(answer[field]),
  });
  switch (question.type) {
    case 'choose': {
      const { options } = question.payload as { options: { id: string; label: string }[] };
      return ask(
        'choice',
        { type: 'string', title: message, oneOf: options.map((o) => ({ const: o.id, title: o.label })) },
        (choiceId) => ({ choiceId: String(choiceId) }),
      );
    }
    case 'confirm': {
      const { default: fallback } = question.payload as { default: boolean };
      return ask('value', { type: 'boolean', title: message, default: fallback }, (value) => ({
        value: value === true,
      }));
    }
    case 'free-text':
      return ask('text', { type: 'string', title: message }, (text) => ({ text: String(text ?? '') }));
    case 'form':
      return isFlatSchema(question.schema)
        ? {
            params: { mode: 'form', message, requestedSchema: question.schema },
            content: (answer) => answer as Json,
          }
        : null;
    default:
      return null;
  }
}

/** The client's answer to the form as the question's answer: accepted, declined or dismissed. */
export function answerOf(form: ElicitationForm, result: ElicitResult): ElicitResponseRequest {
  switch (result.action) {
    case 'accept':
      return { action: 'accept', content: form.content(result.content ?? {}) };
    case 'decline':
      return { action: 'decline' };
    case 'cancel':
      return { action: 'cancel' };
  }
}

/**
 * MCP forms are flat: an object of primitive properties (string, number, integer, boolean, or a
 * string enum). A schema with nested objects or arrays of objects cannot be asked that way.
 */
function isFlatSchema(
  schema: ElicitRequest['schema'],
): schema is ElicitRequestFormParams['requestedSchema'] & { [key: string]: Json } {
  if (!schema || schema['type'] !== 'object') return false;
  const properties = schema['properties'];
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return false;
  return Object.values(properties).every((p) => {
    if (typeof p !== 'object' || p === null || Array.isArray(p)) return false;
    const type = p['type'];
    if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean') return true;
    // a multi-select: an array of string enum values
    const items = p['items'];
    return type === 'array' && typeof items === 'object' && items !== null && !Array.isArray(items);
  });
}
