// The names a target reads when it does not follow its own profile: the mutants of the names the
// spec leaves "not shown" (the profile declares them). Each renames one operation's names on the
// way in (to names no choice set of choices.ts uses), so a request by the declared names reaches
// the handler without them.
import type { Choices } from '../switches/choices.ts';
import type { MutantSwitch } from '../switches/mutants.ts';

export function namesServed(mutant: MutantSwitch, op: string, c: Choices): Choices {
  if (op === 'leads.search' && mutant('lead-search-param-undeclared')) return { ...c, leadsSearchParam: 'term' };
  if (op === 'leads.mutate' && mutant('lead-mutate-names-undeclared')) return { ...c, mutateFields: { ...c.mutateFields, operation: 'bulkAction' } };
  if (op === 'leadSearches.list' && mutant('lf-list-params-undeclared')) return { ...c, listParams: { ...c.listParams, cursor: 'startingAfter', pageSize: 'maxItems' } };
  if (op.startsWith('analytics.') && mutant('anlt-params-undeclared')) return { ...c, analyticsParams: { start: 'dateFrom', end: 'dateTo', excludeOutOfOffice: 'ignoreOoo' } };
  // One name at a time: the flag on every analytics route; the window on the time series or the overview alone.
  if (op.startsWith('analytics.') && mutant('anlt-ooo-param-undeclared')) return { ...c, analyticsParams: { ...c.analyticsParams, excludeOutOfOffice: 'ignoreOoo' } };
  if (op === 'analytics.timeseries' && mutant('anlt-ts-window-undeclared')) return { ...c, analyticsParams: { ...c.analyticsParams, start: 'dateFrom', end: 'dateTo' } };
  if (op === 'analytics.overview' && mutant('anlt-ov-window-undeclared')) return { ...c, analyticsParams: { ...c.analyticsParams, start: 'dateFrom', end: 'dateTo' } };
  return c;
}
