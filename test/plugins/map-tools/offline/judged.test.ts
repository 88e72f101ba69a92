import t from 'tap';
import { OfflineMap } from '../../../../plugins/map-tools/offline/engine.js';
import { MIN_CONFIDENCE } from '../../../../plugins/map-tools/offline/geocoding.js';
import { MONACO_PBF } from './extract.js';
import { JUDGED_QUERIES, type JudgedQuery } from './judged-queries.js';

/**
 * The geocoders against queries a person would type, judged by a person from the extract
 * (`judged-queries.ts`): the first result must be the place meant, and a place the map
 * does not hold must get no match rather than a wrong place.
 */
const map = await OfflineMap.load(MONACO_PBF);
/** The bar: 57 of 60 for the default geocoder, 55 of 60 for the typo-tolerant one, as shares of the suite. */
const REQUIRED = { geocoder_a: 57 / 60, geocoder_b: 55 / 60 };

function firstAnswer(query: string, fuzzy: boolean): string | undefined {
  const [first] = map.geocode(query, { fuzzy, limit: 3, language: 'en' });
  return first && map.features.elementId(first.feature);
}

function isRight(judged: JudgedQuery, answer: string | undefined, fuzzy: boolean): boolean {
  const { expect } = judged;
  if (expect === 'none') return answer === undefined;
  if (answer === undefined) return Boolean(judged.typo) && !fuzzy;
  if (Array.isArray(expect)) return expect.includes(answer);
  const [kind, id] = answer.split('/') as ['node' | 'way' | 'relation', string];
  const tags = map.element(kind, Number(id))?.tags;
  return kind === 'way' && tags?.highway !== undefined && tags.name === (expect as { street: string }).street;
}

t.ok(JUDGED_QUERIES.length >= 60, `${JUDGED_QUERIES.length} judged queries`);

for (const [provider, fuzzy] of [
  ['geocoder_a', false],
  ['geocoder_b', true],
] as const) {
  t.test(`${provider} answers as a person would`, async (t) => {
    const misses: string[] = [];
    for (const judged of JUDGED_QUERIES) {
      const answer = firstAnswer(judged.query, fuzzy);
      if (!isRight(judged, answer, fuzzy)) misses.push(`"${judged.query}" gave ${answer ?? 'no match'} (${judged.why})`);
    }
    for (const miss of misses) t.comment(`${provider} miss: ${miss}`);
    const right = JUDGED_QUERIES.length - misses.length;
    t.ok(right >= Math.ceil(REQUIRED[provider] * JUDGED_QUERIES.length), `${provider}: ${right} of ${JUDGED_QUERIES.length} right`);
    for (const judged of JUDGED_QUERIES.filter((query) => query.expect === 'none')) {
      t.equal(firstAnswer(judged.query, fuzzy), undefined, `${provider}: "${judged.query}" has no match, not a wrong place`);
    }
  });
}

t.test('every result carries a confidence, best first, none below the threshold', async (t) => {
  const confidences = JUDGED_QUERIES.flatMap(({ query }) => map.geocode(query, { fuzzy: true, limit: 10, language: 'en' }).map((match) => match.confidence));
  t.ok(confidences.length > JUDGED_QUERIES.length, `${confidences.length} results`);
  t.ok(
    confidences.every((confidence) => confidence >= MIN_CONFIDENCE && confidence <= 1),
    `all within ${MIN_CONFIDENCE} and 1`,
  );
  for (const fuzzy of [false, true]) {
    const results = map.geocode('Stade Louis II', { fuzzy, limit: 5, language: 'en' });
    t.ok(results.length > 0);
    t.equal(results[0]!.confidence, 1, 'the exact name is sure');
    t.same(
      results.map((result) => result.confidence),
      results.map((result) => result.confidence).sort((a, b) => b - a),
      'best first',
    );
  }
  const typo = map.geocode('Stade Luis II', { fuzzy: true, limit: 1, language: 'en' })[0];
  t.ok(typo && typo.confidence < 1 && typo.confidence > 0.5, `a misspelling is found less surely (${typo?.confidence})`);
});
