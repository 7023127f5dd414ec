import { ELICIT_TYPES, ElicitTypes, parseElicitResponse } from './elicit';

describe('parseElicitResponse', () => {
  it('takes the actions each type allows: denied only where the device is asked', () => {
    const denied = ELICIT_TYPES.filter((type) => parseElicitResponse(type, { action: 'denied' }).ok);
    expect(denied.sort()).toEqual(['clipboard-read', 'clipboard-write', 'location']);
    expect(parseElicitResponse('location', { action: 'denied' })).toEqual({
      ok: true,
      value: { action: 'denied' },
    });
  });

  it('refuses an action the type does not take, naming the action and what it takes', () => {
    expect(parseElicitResponse('confirm', { action: 'denied' })).toEqual({
      ok: false,
      error: {
        message: 'a confirm question is not answered denied: it takes accept, decline, cancel, other',
        problems: [
          {
            field: 'action',
            message: 'a confirm question is not answered denied: it takes accept, decline, cancel, other',
          },
        ],
      },
    });
    // The chat prompt is answered with a message; skipping it means nothing.
    expect(parseElicitResponse('chat', { action: 'decline' })).toMatchObject({
      ok: false,
      error: { problems: [{ field: 'action' }] },
    });
  });

  it('checks an accept’s content against its type, and an off-script answer’s words', () => {
    expect(parseElicitResponse('confirm', { action: 'accept', content: { value: 'yes' } })).toMatchObject({
      ok: false,
      error: { problems: [{ field: 'content.value' }] },
    });
    expect(parseElicitResponse('confirm', { action: 'other', content: { text: '  ' } })).toMatchObject({
      ok: false,
    });
    expect(parseElicitResponse('confirm', { action: 'other', content: { text: 'why?' } })).toEqual({
      ok: true,
      value: { action: 'other', content: { text: 'why?' } },
    });
  });

  it('declares actions for every type, each taking accept and cancel', () => {
    for (const type of ELICIT_TYPES)
      expect(ElicitTypes[type].actions).toEqual(expect.arrayContaining(['accept', 'cancel']));
  });
});
