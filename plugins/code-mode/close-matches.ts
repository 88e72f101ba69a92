import leven from 'leven';

/** The names of `candidates` a mistyped `name` is likely meant to be: nearest first, at most three. */
export function closeMatches(name: string, candidates: readonly string[]): string[] {
  const lower = name.toLowerCase();
  const within = Math.max(2, Math.floor(name.length / 3));
  return candidates
    .map((candidate) => ({ candidate, distance: leven(lower, candidate.toLowerCase()) }))
    .filter(({ candidate, distance }) => distance <= within || candidate.toLowerCase().includes(lower) || lower.includes(candidate.toLowerCase()))
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, 3)
    .map(({ candidate }) => candidate);
}

/** " Did you mean a or b?" for a sentence's end, or nothing. */
export function didYouMean(name: string, candidates: readonly string[]): string {
  const close = closeMatches(name, candidates).map((candidate) => `"${candidate}"`);
  if (close.length === 0) return '';
  return ` Did you mean ${close.length === 1 ? close[0] : `${close.slice(0, -1).join(', ')} or ${close.at(-1)}`}?`;
}

/** The names, quoted and listed, at most `max` of them. */
export function listed(names: readonly string[], max = 20): string {
  const shown = names
    .slice(0, max)
    .map((name) => `"${name}"`)
    .join(', ');
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}
