/** The first value that is a non-empty string ('' for none): display names and URL fallbacks. */
export function firstText(...values: (string | null | undefined)[]): string {
  for (const value of values) if (value) return value;
  return '';
}
