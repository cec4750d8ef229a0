import type { Clause } from './types.ts';
import { CLAUSES_PART1 } from './part1.ts';
import { CLAUSES_PART2 } from './part2.ts';
import { CLAUSES_PART3 } from './part3.ts';
import { CLAUSES_PART4_CONVENTIONS } from './part4-conventions.ts';
import { CLAUSES_PART4_ACCOUNTS } from './part4-accounts.ts';
import { CLAUSES_PART4_CAMPAIGNS } from './part4-campaigns.ts';
import { CLAUSES_PART4_LEADS } from './part4-leads.ts';
import { CLAUSES_PART4_EMAILS } from './part4-emails.ts';
import { CLAUSES_PART4_ANALYTICS } from './part4-analytics.ts';
import { CLAUSES_PART4_LEADFINDER } from './part4-leadfinder.ts';
import { CLAUSES_PART4_WORKSPACE } from './part4-workspace.ts';
import { CLAUSES_PART5 } from './part5.ts';
import { CLAUSES_PART6 } from './part6.ts';
import { CLAUSES_PART7 } from './part7.ts';
import { CLAUSES_PART8 } from './part8.ts';
import { CLAUSES_PART9 } from './part9.ts';

export type { Clause } from './types.ts';

/** The whole clause catalog, in spec order. */
export const CLAUSES: readonly Clause[] = [
  ...CLAUSES_PART1,
  ...CLAUSES_PART2,
  ...CLAUSES_PART3,
  ...CLAUSES_PART4_CONVENTIONS,
  ...CLAUSES_PART4_ACCOUNTS,
  ...CLAUSES_PART4_CAMPAIGNS,
  ...CLAUSES_PART4_LEADS,
  ...CLAUSES_PART4_EMAILS,
  ...CLAUSES_PART4_ANALYTICS,
  ...CLAUSES_PART4_LEADFINDER,
  ...CLAUSES_PART4_WORKSPACE,
  ...CLAUSES_PART5,
  ...CLAUSES_PART6,
  ...CLAUSES_PART7,
  ...CLAUSES_PART8,
  ...CLAUSES_PART9,
];

export const CLAUSE_BY_ID: ReadonlyMap<string, Clause> = new Map(CLAUSES.map((c) => [c.id, c]));
