import t from 'tap';
import { Bm25fIndex, type Bm25fParameters } from '../../../plugins/tool-search/bm25f.js';
import type { ToolDocument } from '../../../plugins/tool-search/documents.js';

/*
 * Issue 56: the BM25F index the ranking scores with. A word's counts in the fields are
 * weighted and summed before they saturate once; a tool taken out leaves no trace.
 */

const PARAMETERS: Bm25fParameters = {
  fields: { name: 1, title: 0, summary: 1.5, description: 0.8, params: 0.4, about: 2 },
  b: { name: 0.9, title: 0.9, summary: 0.6, description: 0.75, params: 0.75, about: 0.9 },
  k: 5,
  d: 0,
};

function tool(name: string, fields: Partial<ToolDocument> = {}): ToolDocument {
  return { id: `s\u0000${name}`, server: 's', tool: name, name, title: '', summary: '', description: '', params: '', about: '', ...fields };
}

const scoreOf = (index: Bm25fIndex, term: string, name: string) => index.hits(term).find((hit) => hit.tool === name)?.score;

t.test('a word counts by the weight of the fields it is in, and saturates once over all of them', async (t) => {
  const index = new Bm25fIndex(PARAMETERS);
  index.add(tool('summarised', { summary: 'Stash the changes' }));
  index.add(tool('described', { description: 'Stash the changes' }));
  index.add(tool('untitled', { title: 'stash changes' }));
  index.add(tool('everywhere', { summary: 'Stash it', description: 'Stash it', params: 'stash', about: 'stash' }));
  for (let i = 0; i < 6; i += 1) index.add(tool(`other_${i}`, { summary: 'Something else' }));
  const summarised = scoreOf(index, 'stash', 'summarised') ?? 0;
  const described = scoreOf(index, 'stash', 'described') ?? 0;
  t.ok(summarised > described, `the first sentence (x1.5) outweighs the description (x0.8): ${summarised} > ${described}`);
  t.equal(scoreOf(index, 'stash', 'untitled'), 0, 'a field weighted 0 adds nothing');
  const everywhere = scoreOf(index, 'stash', 'everywhere') ?? 0;
  t.ok(everywhere > summarised, 'more fields, more weight');
  t.ok(everywhere < 4 * summarised, `but saturating together, not four times over: ${everywhere} < ${4 * summarised}`);
  t.equal(index.hits('absent').length, 0);
});

t.test('counts past 255 in a field stay saturated and do not spill into the next field', async (t) => {
  // No length normalisation in the first sentence, so only the counts differ.
  const index = new Bm25fIndex({ ...PARAMETERS, b: { ...PARAMETERS.b, summary: 0 } });
  const words = (count: number) => Array.from({ length: count }, () => 'word').join(' ');
  index.add(tool('over', { summary: words(300) }));
  index.add(tool('at', { summary: words(255) }));
  index.add(tool('under', { summary: words(10) }));
  index.add(tool('none', { summary: 'other' }));
  const over = scoreOf(index, 'word', 'over') ?? 0;
  t.ok(Number.isFinite(over) && over > (scoreOf(index, 'word', 'under') ?? 0));
  t.equal(over, scoreOf(index, 'word', 'at'), 'past 255 the count stays at 255, and the next field (the description) gets none of it');
});

t.test('a tool taken out leaves no hit, and the lengths and counts are those of the tools kept', async (t) => {
  const index = new Bm25fIndex(PARAMETERS);
  const alone = new Bm25fIndex(PARAMETERS);
  for (const target of [index, alone]) {
    target.add(tool('create_issue', { summary: 'Create an issue in a repository' }));
    target.add(tool('list_issues', { summary: 'List issues' }));
  }
  index.add(tool('long', { summary: 'Create a very long first sentence about issues and other things', about: 'github' }));
  index.remove('s\u0000long');
  t.equal(index.documentCount, 2);
  t.same(index.hits('github'), [], 'its words are gone');
  t.same(index.hits('issu'), alone.hits('issu'), 'the scores are those of an index that never had it');
  index.add(tool('list_issues', { summary: 'List the open issues' }));
  t.equal(index.documentCount, 2, 'a tool added again replaces itself');
});
