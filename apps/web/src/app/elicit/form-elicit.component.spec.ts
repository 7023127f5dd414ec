import { renderWidget } from './render-widget';
import { FormElicitComponent } from './form-elicit.component';

const question = {
  type: 'form',
  message: 'About the item',
  payload: {},
  schema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', minLength: 2 },
      count: { type: 'integer', title: 'How many', minimum: 1 },
      weight: { type: 'number', title: 'Weight (kg)' },
      fragile: { type: 'boolean', title: 'Fragile' },
      room: { type: 'string', title: 'Room', enum: ['kitchen', 'hall'], enumNames: ['Kitchen', 'Hall'] },
    },
    required: ['name', 'count', 'room'],
  },
};

describe('FormElicitComponent', () => {
  it('draws one labelled field per property, marking the required ones', () => {
    const w = renderWidget(FormElicitComponent, question);
    const labels = Array.from(w.element.querySelectorAll('label')).map((l) => l.textContent?.trim());
    expect(labels).toEqual([
      'Name *',
      'How many *',
      'Weight (kg)',
      'Fragile',
      expect.stringContaining('Room *'),
    ]);
    expect(w.element.querySelector('input[type=checkbox]')).not.toBeNull();
    expect(Array.from(w.element.querySelectorAll('option')).map((o) => o.textContent?.trim())).toEqual([
      'Choose…',
      'Kitchen',
      'Hall',
    ]);
  });

  it('draws an MCP titled choice (oneOf of const and title) as a pick-one by its titles', () => {
    const w = renderWidget(FormElicitComponent, {
      ...question,
      schema: {
        type: 'object',
        properties: {
          hero: {
            type: 'string',
            title: 'Hero',
            oneOf: [
              { const: 'hero-1', title: 'Superman' },
              { const: 'hero-2', title: 'Wonder Woman' },
            ],
          },
        },
      },
    });
    expect(
      Array.from(w.element.querySelectorAll('option')).map((o) => [
        o.getAttribute('value'),
        o.textContent?.trim(),
      ]),
    ).toEqual([
      ['', 'Choose…'],
      ['hero-1', 'Superman'],
      ['hero-2', 'Wonder Woman'],
    ]);
  });

  it('refuses to submit with required fields missing and says which', async () => {
    const w = renderWidget(FormElicitComponent, question);
    w.button('Submit').click();
    await w.settle();
    expect(w.answers).toEqual([]);
    const alerts = Array.from(w.element.querySelectorAll('[role=alert]')).map((a) => a.textContent?.trim());
    expect(alerts).toEqual(['Name: Required', 'How many: Required', 'Room: Required']);
    // each field is read with what is wrong with it
    const name = w.element.querySelector('input') as HTMLInputElement;
    const described = (name.getAttribute('aria-describedby') ?? '').split(' ');
    const said = described.map((id) => w.element.querySelector(`[id="${id}"]`)?.textContent?.trim());
    expect(said).toContain('Name: Required');
  });

  it('answers an object typed as the schema says', async () => {
    const w = renderWidget(FormElicitComponent, question);
    const inputs = w.element.querySelectorAll('input');
    const set = (el: Element, value: string) => {
      (el as HTMLInputElement).value = value;
      el.dispatchEvent(new Event('input'));
    };
    set(inputs[0]!, 'lamp');
    set(inputs[1]!, '2');
    set(inputs[2]!, '1.5');
    const check = w.element.querySelector('input[type=checkbox]') as HTMLInputElement;
    check.checked = true;
    check.dispatchEvent(new Event('change'));
    const select = w.element.querySelector('select')!;
    select.value = 'hall';
    select.dispatchEvent(new Event('change'));
    w.button('Submit').click();
    await w.settle();
    expect(w.answers).toEqual([
      { action: 'accept', content: { name: 'lamp', count: 2, weight: 1.5, fragile: true, room: 'hall' } },
    ]);
  });

  it('rejects a fraction for an integer field', async () => {
    const w = renderWidget(FormElicitComponent, question);
    const inputs = w.element.querySelectorAll('input');
    (inputs[0] as HTMLInputElement).value = 'lamp';
    inputs[0]!.dispatchEvent(new Event('input'));
    (inputs[1] as HTMLInputElement).value = '2.5';
    inputs[1]!.dispatchEvent(new Event('input'));
    w.button('Submit').click();
    await w.settle();
    expect(w.answers).toEqual([]);
    expect(w.element.textContent).toContain('How many: A whole number');
  });
});

describe("FormElicitComponent with an MCP server's formats", () => {
  const formatted = {
    type: 'form',
    message: 'Please provide inputs for the following fields:',
    payload: {},
    schema: {
      type: 'object',
      properties: {
        email: { type: 'string', title: 'Email', format: 'email' },
        site: { type: 'string', title: 'Website', format: 'uri' },
        born: { type: 'string', title: 'Born', format: 'date' },
        at: { type: 'string', title: 'Call me at', format: 'date-time' },
      },
      required: ['email'],
    },
  };
  const set = (el: Element, value: string) => {
    (el as HTMLInputElement).value = value;
    el.dispatchEvent(new Event('input'));
  };

  it('types each in the box a phone shows for it: the @ key, a web address, a date picker', () => {
    const w = renderWidget(FormElicitComponent, formatted);
    expect(Array.from(w.element.querySelectorAll('input')).map((i) => i.type)).toEqual([
      'email',
      'url',
      'date',
      'datetime-local',
    ]);
  });

  it('says which is not what it asks for, in words, and sends nothing', async () => {
    const w = renderWidget(FormElicitComponent, formatted);
    // (a date picker gives a date or nothing: there is no wrong date to type in it)
    const [email, site] = Array.from(w.element.querySelectorAll('input'));
    set(email!, 'not-an-email');
    set(site!, 'my site');
    w.button('Submit').click();
    await w.settle();
    expect(w.answers).toEqual([]);
    expect(Array.from(w.element.querySelectorAll('[role=alert]')).map((a) => a.textContent?.trim())).toEqual([
      'Email: An email address, like name@example.com',
      'Website: A web address, like https://example.com',
    ]);
  });

  it('sends what fits, a local date and time as the instant it names', async () => {
    const w = renderWidget(FormElicitComponent, formatted);
    const [email, site, born, at] = Array.from(w.element.querySelectorAll('input'));
    set(email!, 'ines@example.com');
    set(site!, 'https://ines.example/');
    set(born!, '2024-02-29');
    set(at!, '2026-03-14T09:30');
    w.button('Submit').click();
    await w.settle();
    expect(w.answers).toEqual([
      {
        action: 'accept',
        content: {
          email: 'ines@example.com',
          site: 'https://ines.example/',
          born: '2024-02-29',
          at: new Date('2026-03-14T09:30').toISOString(),
        },
      },
    ]);
  });
});

describe('FormElicitComponent with a schema from zod (descriptions, no titles)', () => {
  // What askForm sends for the donation helper's form: `.describe()` gives each field's question.
  const described = {
    type: 'form',
    message: 'A little about the winter coat',
    payload: {},
    schema: {
      type: 'object',
      properties: {
        condition: {
          type: 'string',
          enum: ['like new', 'good', 'worn'],
          description: 'What condition is it in?',
        },
        bags: { type: 'integer', minimum: 1, maximum: 10, description: 'How many bags or boxes?' },
        collection: { type: 'boolean', description: 'Would you rather it were collected?' },
        pick_up_day: { type: 'string' },
      },
      required: ['condition', 'bags', 'collection'],
    },
  };

  it('labels each field with its question, not its property name, and does not say it twice', () => {
    const w = renderWidget(FormElicitComponent, described);
    const labels = Array.from(w.element.querySelectorAll('label')).map((l) =>
      l.textContent?.replace(/\s+/g, ' ').trim(),
    );
    expect(labels).toEqual([
      expect.stringMatching(/^What condition is it in\? \*/),
      'How many bags or boxes? *',
      'Would you rather it were collected?',
      'Pick up day',
    ]);
    expect(w.element.querySelectorAll('small.muted')).toHaveLength(0);
  });

  it("starts from what the words already gave (each field's default): only the rest is to fill in", async () => {
    const properties = described.schema.properties;
    const w = renderWidget(FormElicitComponent, {
      ...described,
      schema: {
        ...described.schema,
        properties: { ...properties, condition: { ...properties.condition, default: 'good' } },
      },
    });
    await w.settle();
    expect(w.element.querySelector('select')!.value).toBe('good');
    w.button('Submit').click();
    await w.settle();
    const alerts = Array.from(w.element.querySelectorAll('[role=alert]')).map((a) => a.textContent?.trim());
    expect(alerts).toEqual(['How many bags or boxes? Required']);
    const bags = w.element.querySelector('input[type=number]') as HTMLInputElement;
    bags.value = '2';
    bags.dispatchEvent(new Event('input'));
    w.button('Submit').click();
    await w.settle();
    expect(w.answers).toEqual([
      { action: 'accept', content: { condition: 'good', bags: 2, collection: false } },
    ]);
  });

  it('fills in a number, a text and a yes given as defaults', async () => {
    const w = renderWidget(FormElicitComponent, {
      ...question,
      schema: {
        ...question.schema,
        properties: {
          ...question.schema.properties,
          name: { ...question.schema.properties.name, default: 'lamp' },
          count: { ...question.schema.properties.count, default: 3 },
          fragile: { ...question.schema.properties.fragile, default: true },
          room: { ...question.schema.properties.room, default: 'kitchen' },
        },
      },
    });
    await w.settle();
    w.button('Submit').click();
    await w.settle();
    expect(w.answers).toEqual([
      { action: 'accept', content: { name: 'lamp', count: 3, fragile: true, room: 'kitchen' } },
    ]);
  });

  it('says what is missing after the question it belongs to', async () => {
    const w = renderWidget(FormElicitComponent, described);
    w.button('Submit').click();
    await w.settle();
    const alerts = Array.from(w.element.querySelectorAll('[role=alert]')).map((a) => a.textContent?.trim());
    expect(alerts).toEqual(['What condition is it in? Required', 'How many bags or boxes? Required']);
  });
});
