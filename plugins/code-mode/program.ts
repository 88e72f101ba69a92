import { transform } from 'sucrase';

/** The name a program's stack frames carry, from which an error's line is read. */
export const PROGRAM_FILE = 'program.js';

export type Compiled = { ok: true; code: string } | { ok: false; error: string };

/**
 * A program (the body of an async function, TypeScript or JavaScript) as the JavaScript
 * the sandbox runs: wrapped in an async arrow called at once, opened on the program's own
 * first line so that line numbers stay the program's, and its types stripped by sucrase
 * (which keeps every line where it was and checks no types).
 */
export function compileProgram(source: string): Compiled {
  const wrapped = `(async () => {${source}\n})()`;
  try {
    return { ok: true, code: transform(wrapped, { transforms: ['typescript'], disableESTransforms: true }).code };
  } catch (error) {
    const { message, loc } = error as { message?: string; loc?: { line?: number } };
    const text = (message ?? 'the program could not be read').replace(/\s*\(\d+:\d+\)$/, '');
    return { ok: false, error: `SyntaxError: ${text}${loc?.line === undefined ? '' : ` (line ${loc.line})`}` };
  }
}
