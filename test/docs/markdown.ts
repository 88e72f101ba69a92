import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { Lexer, type Token, type Tokens } from 'marked';

/** The repository's root, from dist/test/docs/. */
export const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface Link {
  href: string;
  /** 1-based line of the link in its file, for messages. */
  line: number;
}

export interface CodeBlock {
  /** The first word of the info string (`json` of `json mcp.json`), lower-case; '' when unmarked. */
  language: string;
  /** The info string's words after the language (`mcp.json` of `json mcp.json`). */
  tags: string[];
  text: string;
  line: number;
}

export interface MarkdownPage {
  /** Path from the repository's root, with forward slashes. */
  path: string;
  text: string;
  /** The anchors GitHub makes of its headings. */
  anchors: Set<string>;
  headings: string[];
  links: Link[];
  blocks: CodeBlock[];
}

/** Every token under `tokens`, depth first: list items, table cells and inline tokens included. */
function* walk(tokens: readonly Token[]): Generator<Token> {
  for (const token of tokens) {
    yield token;
    const nested = (token as { tokens?: Token[] }).tokens;
    if (nested) yield* walk(nested);
    if (token.type === 'list') for (const item of (token as Tokens.List).items) yield* walk([item]);
    if (token.type === 'table') {
      const table = token as Tokens.Table;
      for (const cell of [...table.header, ...table.rows.flat()]) yield* walk(cell.tokens);
    }
  }
}

/** A heading's text as GitHub renders it before making its anchor: inline markup gone, code kept. */
function plainText(tokens: readonly Token[]): string {
  return tokens
    .map((token) => {
      const inline = token as Partial<Tokens.Generic>;
      if (token.type === 'codespan' || token.type === 'text' || token.type === 'escape') return inline.tokens ? plainText(inline.tokens) : (inline.text as string);
      if (inline.tokens) return plainText(inline.tokens);
      return token.type === 'html' ? '' : ((inline.text as string | undefined) ?? '');
    })
    .join('');
}

/** Reads and parses one Markdown file with marked, the way GitHub shows it. */
export async function readPage(path: string): Promise<MarkdownPage> {
  const text = await readFile(join(root, path), 'utf8');
  const tokens = new Lexer({ gfm: true }).lex(text);
  const slugger = new GithubSlugger();
  const page: MarkdownPage = { path, text, anchors: new Set(), headings: [], links: [], blocks: [] };
  // marked keeps each token's source text: its line is found by walking the raw text forward.
  let offset = 0;
  const lineOf = (raw: string) => {
    const at = text.indexOf(raw, offset);
    if (at >= 0) offset = at;
    return text.slice(0, Math.max(at, 0)).split('\n').length;
  };
  for (const token of walk(tokens)) {
    if (token.type === 'heading') {
      const heading = plainText((token as Tokens.Heading).tokens);
      page.headings.push(heading);
      page.anchors.add(slugger.slug(heading));
    } else if (token.type === 'link' || token.type === 'image') {
      page.links.push({ href: (token as Tokens.Link).href, line: lineOf(token.raw) });
    } else if (token.type === 'code' && (token as Tokens.Code).codeBlockStyle !== 'indented') {
      const block = token as Tokens.Code;
      const [language = '', ...tags] = (block.lang ?? '').trim().split(/\s+/);
      page.blocks.push({ language: language.toLowerCase(), tags, text: block.text, line: lineOf(token.raw) });
    }
  }
  return page;
}

async function markdownUnder(folder: string): Promise<string[]> {
  const entries = await readdir(join(root, folder), { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md') && !entry.parentPath.includes('node_modules'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

/**
 * The pages the docs check covers: README.md, CONTRIBUTING.md, everything under docs/, and
 * every plugin's README (found, not listed: plugins added later are covered too).
 */
export async function documentationPages(): Promise<string[]> {
  const plugins = (await markdownUnder('plugins')).filter((path) => path.endsWith('/README.md'));
  return ['README.md', 'CONTRIBUTING.md', ...(await markdownUnder('docs')), ...plugins].sort();
}
