import type { Clause } from './types.ts';

// Part 6 "Events". Ids: EVT-.
export const CLAUSES_PART6: readonly Clause[] = [
  {
    id: 'EVT-NOT-SHOWN',
    section: '6',
    text: 'Events, webhooks and callbacks: not shown (the profile declares any the target offers; no check assumes them).',
    level: 'PROFILE',
  },
  {
    id: 'EVT-POLLING',
    section: '6',
    text: 'With no events shown, outcomes are observed by polling (3.2: "poll the mailbox for the outcome"): every background result becomes visible through the read endpoints.',
    level: 'SHOULD',
  },
];
