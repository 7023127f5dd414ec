import { TestBed } from '@angular/core/testing';
import type { Json } from '@sweatpants/domain';

import { renderWidget } from './render-widget';
import { ElicitProgress } from './elicit-progress';
import { LocationElicitComponent } from './location-elicit.component';

type Success = (position: { coords: { latitude: number; longitude: number } }) => void;
type Failure = (error: { code: number; message: string }) => void;

function fakeGeolocation(answer: (ok: Success, fail: Failure) => void) {
  const getCurrentPosition = jest.fn((ok: Success, fail: Failure, _options?: PositionOptions) =>
    answer(ok, fail),
  );
  Object.defineProperty(navigator, 'geolocation', { value: { getCurrentPosition }, configurable: true });
  return getCurrentPosition;
}

describe('LocationElicitComponent', () => {
  const question = { type: 'location', message: 'Where are you?', payload: { accuracy: 'high' } };

  it('asks only on a tap, with high accuracy when asked for, and answers {lat, lng}', () => {
    const get = fakeGeolocation((ok) => ok({ coords: { latitude: 52.52, longitude: 13.405 } }));
    const w = renderWidget(LocationElicitComponent, question);
    expect(get).not.toHaveBeenCalled();
    w.button('Share my location').click();
    expect(get.mock.calls[0]?.[2]).toMatchObject({ enableHighAccuracy: true });
    expect(w.answers).toEqual([{ action: 'accept', content: { lat: 52.52, lng: 13.405 } }]);
  });

  it('tells the agent it is finding the person once they tap, before the answer', () => {
    const reported: Json[] = [];
    TestBed.configureTestingModule({
      providers: [{ provide: ElicitProgress, useValue: { report: (p: Json) => reported.push(p) } }],
    });
    let answer: Success = () => undefined;
    fakeGeolocation((ok) => (answer = ok));
    const w = renderWidget(LocationElicitComponent, question);
    expect(reported).toEqual([]);
    w.button('Share my location').click();
    expect(reported).toEqual([{ status: 'acquiring' }]);
    expect(w.answers).toEqual([]);
    answer({ coords: { latitude: 1, longitude: 2 } });
    expect(w.answers).toEqual([{ action: 'accept', content: { lat: 1, lng: 2 } }]);
  });

  it('answers denied when the user refuses the permission', () => {
    fakeGeolocation((_, fail) => fail({ code: 1, message: 'User denied Geolocation' }));
    const w = renderWidget(LocationElicitComponent, question);
    w.button('Share my location').click();
    expect(w.answers).toEqual([{ action: 'denied' }]);
  });

  it('shows other failures and lets the user try again', async () => {
    fakeGeolocation((_, fail) => fail({ code: 3, message: 'Timeout expired' }));
    const w = renderWidget(LocationElicitComponent, { ...question, payload: { accuracy: 'low' } });
    w.button('Share my location').click();
    await w.settle();
    expect(w.answers).toEqual([]);
    expect(w.element.querySelector('[role=alert]')?.textContent).toContain('Timeout expired');
    expect(w.button('Share my location').disabled).toBe(false);
  });
});
