/** Strips empty values so an untouched field never becomes a filter (pure: route-level prefetches use it too). */
export function cleanFilters(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && !v.length)));
}
