import { Coalesced } from './coalesced';

describe('Coalesced', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs once a burst of requests settles', () => {
    const work = jest.fn();
    const reload = new Coalesced(work, 150, 1000);
    reload.request();
    jest.advanceTimersByTime(100);
    reload.request();
    jest.advanceTimersByTime(149);
    expect(work).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('runs at least once per ceiling while the requests go on, and once after they stop', () => {
    const work = jest.fn();
    const reload = new Coalesced(work, 150, 1000);
    for (let ms = 0; ms < 2500; ms += 100) {
      reload.request();
      jest.advanceTimersByTime(100);
    }
    expect(work).toHaveBeenCalledTimes(2);
    jest.advanceTimersByTime(150);
    expect(work).toHaveBeenCalledTimes(3);
  });

  it('forgets a pending run when cancelled', () => {
    const work = jest.fn();
    const reload = new Coalesced(work, 150, 1000);
    reload.request();
    reload.cancel();
    jest.advanceTimersByTime(2000);
    expect(work).not.toHaveBeenCalled();
  });
});
