import type { ElicitRequest } from '@sweatpants/domain';
import { answerOf, elicitationForm } from './elicitation-form';

const question = (type: string, payload: object, schema?: object): ElicitRequest =>
  ({ elicitId: 'q1', type, message: 'Which?', payload, ...(schema ? { schema } : {}) }) as ElicitRequest;

describe('a question as an MCP elicitation form', () => {
  it('choose: a string enum whose options keep their labels; the choice comes back as choiceId', () => {
    const form = elicitationForm(
      question('choose', {
        options: [
          { id: 'a', label: 'Keep' },
          { id: 'b', label: 'Give away' },
        ],
      }),
    )!;
    expect(form.params).toEqual({
      mode: 'form',
      message: 'Which?',
      requestedSchema: {
        type: 'object',
        properties: {
          choice: {
            type: 'string',
            title: 'Which?',
            oneOf: [
              { const: 'a', title: 'Keep' },
              { const: 'b', title: 'Give away' },
            ],
          },
        },
        required: ['choice'],
      },
    });
    expect(answerOf(form, { action: 'accept', content: { choice: 'b' } })).toEqual({
      action: 'accept',
      content: { choiceId: 'b' },
    });
  });

  it('confirm is a boolean with its default, free-text a string', () => {
    const confirm = elicitationForm(question('confirm', { default: true }))!;
    expect(confirm.params.requestedSchema.properties['value']).toEqual({
      type: 'boolean',
      title: 'Which?',
      default: true,
    });
    expect(answerOf(confirm, { action: 'accept', content: { value: false } })).toEqual({
      action: 'accept',
      content: { value: false },
    });
    const text = elicitationForm(question('free-text', {}))!;
    expect(answerOf(text, { action: 'accept', content: { text: 'reading' } })).toEqual({
      action: 'accept',
      content: { text: 'reading' },
    });
  });

  it('a flat form is asked with its own schema; a nested one is not a form', () => {
    const schema = {
      type: 'object',
      properties: {
        bags: { type: 'integer', minimum: 1 },
        condition: { type: 'string', enum: ['good', 'worn'] },
      },
      required: ['bags'],
    };
    const form = elicitationForm(question('form', {}, schema))!;
    expect(form.params.requestedSchema).toEqual(schema);
    expect(answerOf(form, { action: 'accept', content: { bags: 2 } })).toEqual({
      action: 'accept',
      content: { bags: 2 },
    });
    const nested = { type: 'object', properties: { where: { type: 'object', properties: {} } } };
    expect(elicitationForm(question('form', {}, nested))).toBeNull();
  });

  it('a proposal card, a place or the chat prompt has no form shape: it is for the person’s own clients', () => {
    for (const type of ['propose-disposition', 'location', 'chat', 'group', 'clipboard-read'])
      expect(elicitationForm(question(type, {}))).toBeNull();
  });

  it('decline and cancel are recorded as themselves', () => {
    const form = elicitationForm(question('confirm', { default: false }))!;
    expect(answerOf(form, { action: 'decline' })).toEqual({ action: 'decline' });
    expect(answerOf(form, { action: 'cancel' })).toEqual({ action: 'cancel' });
  });
});
