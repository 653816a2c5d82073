/** A copy of a picker's selection with `item` added, or taken out if it was in. */
export function toggled<T>(selection: ReadonlySet<T>, item: T): Set<T> {
  const next = new Set(selection);
  if (next.has(item)) next.delete(item);
  else next.add(item);
  return next;
}
