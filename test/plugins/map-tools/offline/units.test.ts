import t from 'tap';
import { solveTrip, tourCost } from '../../../../plugins/map-tools/offline/trip.js';
import { editDistance, normalize, trigrams } from '../../../../plugins/map-tools/offline/text.js';
import { PASSAGE_KEYS, PROFILES, parseMaxspeed, passage } from '../../../../plugins/map-tools/offline/profiles.js';
import { MinHeap } from '../../../../plugins/map-tools/offline/heap.js';
import { compassOf, metersPerDegreeLon } from '../../../../plugins/map-tools/offline/geo.js';
import { AreaOutlineBuilder } from '../../../../plugins/map-tools/offline/areas.js';

t.test('profiles read highway classes, access, oneway and maxspeed', async (t) => {
  t.same(passage({ highway: 'residential' }, 'car'), { forward: 25, backward: 25 });
  t.same(passage({ highway: 'residential', oneway: 'yes' }, 'car'), { forward: 25, backward: 0 });
  t.same(passage({ highway: 'residential', oneway: '-1' }, 'car'), { forward: 0, backward: 25 });
  t.same(passage({ highway: 'residential', oneway: 'yes' }, 'foot'), { forward: 5, backward: 5 }, 'walkers ignore oneway');
  t.same(passage({ highway: 'primary', junction: 'roundabout' }, 'car'), { forward: 65, backward: 0 }, 'roundabouts are one-way');
  t.same(passage({ highway: 'motorway' }, 'car'), { forward: 110, backward: 0 });
  t.same(passage({ highway: 'motorway' }, 'foot'), { forward: 0, backward: 0 });
  t.same(passage({ highway: 'motorway', access: 'yes' }, 'bike'), { forward: 0, backward: 0 }, 'no cycling on motorways');
  t.same(passage({ highway: 'residential', oneway: 'yes', 'oneway:bicycle': 'no' }, 'bike'), { forward: 16, backward: 16 });
  t.same(passage({ highway: 'residential', oneway: 'yes', cycleway: 'opposite_lane' }, 'bike'), { forward: 16, backward: 16 });
  t.same(passage({ highway: 'cycleway', 'oneway:bicycle': 'yes' }, 'bike'), { forward: 18, backward: 0 });
  t.same(passage({ highway: 'steps' }, 'car'), { forward: 0, backward: 0 });
  t.same(passage({ highway: 'steps' }, 'foot'), { forward: 3, backward: 3 });
  t.same(passage({ highway: 'steps' }, 'bike'), { forward: 2, backward: 2 }, 'bikes are carried');
  t.same(passage({ highway: 'footway' }, 'bike'), { forward: 4, backward: 4 }, 'bikes are pushed on footways');
  t.same(passage({ highway: 'footway', bicycle: 'yes' }, 'bike'), { forward: 16, backward: 16 });
  t.same(passage({ highway: 'footway', bicycle: 'no' }, 'bike'), { forward: 0, backward: 0 });
  t.same(passage({ highway: 'trunk' }, 'foot'), { forward: 0, backward: 0 });
  t.same(passage({ highway: 'trunk' }, 'bike'), { forward: 16, backward: 16 });
  t.same(passage({ highway: 'service', access: 'private' }, 'car'), { forward: 0, backward: 0 });
  t.same(passage({ highway: 'service', access: 'private', foot: 'yes' }, 'foot'), { forward: 5, backward: 5 }, 'the specific key wins');
  t.same(passage({ highway: 'pedestrian' }, 'car'), { forward: 0, backward: 0 });
  t.same(passage({ highway: 'pedestrian', motor_vehicle: 'destination' }, 'car'), { forward: 0, backward: 0 }, 'no default speed for the class');
  t.same(passage({ highway: 'tertiary', maxspeed: '30' }, 'car'), { forward: 30, backward: 30 });
  t.same(passage({ highway: 'service', area: 'yes' }, 'car'), { forward: 15, backward: 15 });
  t.same(passage({ highway: 'residential', area: 'yes' }, 'foot'), { forward: 0, backward: 0 });
  t.same(passage({ highway: 'construction' }, 'foot'), { forward: 0, backward: 0 });
  t.same(passage({ building: 'yes' }, 'foot'), { forward: 0, backward: 0 });
  t.same(passage({ highway: 'track', sidewalk: 'both' }, 'foot'), { forward: 5, backward: 5 });
  t.equal(parseMaxspeed('30 mph'), 30 * 1.609344);
  t.equal(parseMaxspeed('FR:urban'), 50);
  t.equal(parseMaxspeed('DE:zone30'), 30);
  t.equal(parseMaxspeed('FR:rural'), 80);
  t.equal(parseMaxspeed('FR:motorway'), 130);
  t.equal(parseMaxspeed('DE:living_street'), 20);
  t.equal(parseMaxspeed('walk'), 6);
  t.equal(parseMaxspeed('signals'), undefined);
  t.equal(parseMaxspeed('0'), undefined);
  t.equal(parseMaxspeed(undefined), undefined);
});

t.test('passage reads only PASSAGE_KEYS (the loader caches on them)', async (t) => {
  const values: Record<string, string[]> = {
    highway: ['residential', 'footway', 'motorway', 'steps', 'service', 'cycleway', 'pedestrian'],
    access: ['private', 'yes', 'no'],
    foot: ['yes', 'no'],
    bicycle: ['yes', 'no', 'designated'],
    oneway: ['yes', '-1', 'no'],
    maxspeed: ['30', '50 mph', 'FR:urban'],
    area: ['yes'],
    sidewalk: ['both', 'no'],
    cycleway: ['opposite_lane'],
    junction: ['roundabout'],
    surface: ['asphalt', 'gravel'],
    name: ['Rue', 'Road'],
    lanes: ['2'],
  };
  let seed = 5;
  const pick = <T>(items: readonly T[]) => items[(seed = (seed * 16807) % 2147483647) % items.length]!;
  let differing = 0;
  for (let i = 0; i < 500; i++) {
    const tags = Object.fromEntries(
      Object.entries(values)
        .filter(() => pick([true, false]))
        .map(([key, options]) => [key, pick(options)]),
    );
    const relevant = Object.fromEntries(Object.entries(tags).filter(([key]) => PASSAGE_KEYS.includes(key)));
    for (const profile of PROFILES) if (JSON.stringify(passage(tags, profile)) !== JSON.stringify(passage(relevant, profile))) differing++;
  }
  t.equal(differing, 0);
});

t.test('the visiting order: exact below the limit, 2-opt above, both start at stop 0', async (t) => {
  // Points on a line, shuffled: the best open path visits them in position order.
  const positions = [0, 7, 3, 9, 1, 5, 11, 2, 8, 4, 10, 6];
  const costs = positions.map((a) => positions.map((b) => Math.abs(a - b)));
  const exact = solveTrip(costs, true, 12);
  const heuristic = solveTrip(costs, true, 3);
  t.equal(exact?.[0], 0);
  t.equal(heuristic?.[0], 0);
  t.same(
    [...(heuristic ?? [])].sort((a, b) => a - b),
    positions.map((_, i) => i),
  );
  t.equal(tourCost(costs, exact ?? [], true), 22, 'out to the far end and back');
  t.ok(tourCost(costs, heuristic ?? [], true) >= 22);
  const open = solveTrip(costs, false, 3);
  t.equal(open?.[0], 0);
  t.equal(open?.at(-1), 11, 'an open trip ends at the last stop');
  // Positions 0, 7, 3, 9, 1 from 0 to 1: out to 9 and back is 17, the best possible.
  const small = costs.slice(0, 5).map((row) => row.slice(0, 5));
  const openExact = solveTrip(small, false);
  t.equal(tourCost(small, openExact ?? [], false), 17);
  t.equal(openExact?.at(-1), 4);
  t.same(
    solveTrip(
      [
        [0, 1],
        [1, 0],
      ],
      true,
    ),
    [0, 1],
  );
  const broken = [
    [0, 1, Infinity],
    [1, 0, Infinity],
    [Infinity, Infinity, 0],
  ];
  t.equal(solveTrip(broken, true), undefined);
  t.equal(solveTrip(broken, true, 1), undefined);
});

t.test('text: normalization, trigrams and edit distance', async (t) => {
  t.equal(normalize('  Musée  Océanographique! '), 'musee oceanographique');
  t.equal(normalize('Straße'), 'strasse');
  t.ok(trigrams('ab').has('  a'));
  t.equal(editDistance('louis', 'luis'), 1);
  t.equal(editDistance('ab', 'ba'), 1, 'a swap is one edit');
  t.equal(editDistance('', 'abc'), 3);
  t.equal(editDistance('abc', ''), 3);
});

t.test('heap and compass', async (t) => {
  const heap = new MinHeap();
  const keys = Array.from({ length: 3000 }, (_, i) => (i * 7919) % 3001);
  keys.forEach((key, i) => heap.push(key, i));
  let last = -1;
  let ordered = true;
  while (heap.size > 0) {
    const key = heap.peekKey();
    heap.pop();
    ordered &&= key >= last;
    last = key;
  }
  t.ok(ordered);
  t.equal(compassOf(359), 'N');
  t.equal(compassOf(90), 'E');
});

t.test('area outlines: inside by the even-odd rule over member lines in any order, holes, distance, unclosed outlines left out', async (t) => {
  // Nodes 0-3 the corners of a square of 0.01 degrees, 4-7 a hole in its middle; positions in 1e-7 degrees.
  const corners = (south: number, west: number, size: number) => [south, west, south, west + size, south + size, west + size, south + size, west];
  const nodes = Int32Array.from([...corners(43.7, 7.4, 0.01), ...corners(43.704, 7.404, 0.002)].map((degrees) => Math.round(degrees * 1e7)));
  const line = (...positions: number[]) => Int32Array.from(positions);
  const builder = new AreaOutlineBuilder();
  t.ok(builder.add(7, [line(2, 3, 0), line(0, 1, 2)], nodes), 'two halves, the second drawn first, close');
  t.ok(builder.add(8, [line(0, 1, 2, 3, 0), line(4, 5, 6, 7, 4)], nodes), 'an outer ring and an inner one');
  t.notOk(builder.add(9, [line(0, 1, 2), line(2, 3)], nodes), 'a boundary cut open is left out');
  t.notOk(builder.add(9, [line(0, 1, 2), line(-1, -2)], nodes), 'so is one with a member missing');
  const outlines = builder.finish();
  t.same(Array.from(outlines.feature), [7, 8]);
  t.ok(outlines.contains(0, 43.705, 7.405));
  t.notOk(outlines.contains(0, 43.705, 7.415), 'east of it');
  t.notOk(outlines.contains(1, 43.705, 7.405), 'in the hole');
  t.ok(outlines.contains(1, 43.701, 7.401), 'between the rings');
  t.equal(outlines.distanceM(0, 43.705, 7.405), 0);
  const east = outlines.distanceM(0, 43.705, 7.411);
  t.ok(Math.abs(east - 0.001 * metersPerDegreeLon(43.705)) < 1, `about 80 m east of its edge (${east})`);
  t.equal(outlines.distanceM(0, 43.705, 7.5, 1000), Infinity, 'far beyond its box: not measured');
});
