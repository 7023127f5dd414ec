import { run } from 'effection';
import { demoDirectory, distanceKm, DropOffDirectory } from './drop-off-directory';

const RUSSELL_SQUARE = { lat: 51.5229, lng: -0.1256 };

describe('the drop-off directory protocol', () => {
  it('reports each list as it is checked, then the nearest places that take the kind, nearest first', async () => {
    const progress: unknown[] = [];
    const found = await run(() =>
      DropOffDirectory.with(demoDirectory, function* () {
        const directory = yield* DropOffDirectory.attach();
        return yield* directory.call('search', { near: RUSSELL_SQUARE, kind: 'clothes', limit: 3 }, (p) =>
          progress.push(p),
        );
      }),
    );
    expect(progress).toEqual([
      { list: 'charity shops', checked: 1, total: 3 },
      { list: 'clothes and textile banks', checked: 2, total: 3 },
      { list: 'reuse centres', checked: 3, total: 3 },
    ]);
    expect(found.places.map((p) => [p.name, p.km])).toEqual([
      ['Textile bank, Brunswick Centre car park', 0.2],
      ['Hospice Charity Shop', 0.2],
      ['Camden Reuse Centre', 2.1],
    ]);
  });

  it('leaves out shops that resell when the things are worn: a textile bank takes worn clothes, a charity shop does not', async () => {
    const found = await run(() =>
      DropOffDirectory.with(demoDirectory, function* () {
        const directory = yield* DropOffDirectory.attach();
        return yield* directory.call('search', {
          near: RUSSELL_SQUARE,
          kind: 'clothes',
          limit: 3,
          condition: 'worn',
        });
      }),
    );
    expect(found.places.map((p) => p.name)).toEqual([
      'Textile bank, Brunswick Centre car park',
      'Camden Reuse Centre',
    ]);
  });

  it('searches the services that collect only when asked, each with how far it reaches', async () => {
    const progress: unknown[] = [];
    const found = await run(() =>
      DropOffDirectory.with(demoDirectory, function* () {
        const directory = yield* DropOffDirectory.attach();
        return yield* directory.call(
          'search',
          { near: RUSSELL_SQUARE, kind: 'furniture', limit: 3, service: 'collection' },
          (p) => progress.push(p),
        );
      }),
    );
    expect(progress).toEqual([{ list: 'collection services', checked: 1, total: 1 }]);
    expect(found).toMatchObject({
      area: 'central London',
      places: [{ name: 'Camden Reuse Centre collection van', km: 2.1, servesKm: 8 }],
    });
  });

  it('refuses a point off the map before any directory is asked', async () => {
    let asked = false;
    const search = run(() =>
      DropOffDirectory.with(
        {
          *search() {
            asked = true;
            return { directory: 'never', places: [] };
          },
        },
        function* () {
          const directory = yield* DropOffDirectory.attach();
          return yield* directory.call('search', { near: { lat: 123, lng: 0 }, kind: 'books', limit: 1 });
        },
      ),
    );
    await expect(search).rejects.toThrow(/lat/);
    expect(asked).toBe(false);
  });

  it('measures along the earth: a degree of latitude is about 111 km', () => {
    expect(distanceKm({ lat: 0, lng: 0 }, { lat: 1, lng: 0 })).toBeCloseTo(111.2, 1);
  });
});
