import type { Profile } from '../profile-schema.ts';

// What the document reads from a profile: the names, referenced operations and success statuses
// a vendor declares. Without a profile (or where it is silent) the spec's generic reading stays,
// each such place marked NOT_DECLARED so a diff against a vendor's own spec shows what is open.

/** The part of a profile the OpenAPI document renders. */
export type VendorProfile = Pick<Profile, 'name' | 'names' | 'operations' | 'declarations'> & { baseUrl?: string };

/** Marks a place where the document shows the spec's generic reading, not a declared choice. */
export const NOT_DECLARED = { 'x-outreach-conformance': 'not-declared' } as const;
export const marked = (declared: boolean) => (declared ? {} : NOT_DECLARED);

/** A name the spec leaves "not shown": the vendor's when declared, else the kit's logical name. */
export interface Named {
  name: string;
  declared: boolean;
}

/** Logical name -> the generic name the document uses when no profile declares it. */
const GENERIC = {
  cursor: 'cursor',
  pageSize: 'pageSize',
  status: 'status',
  tags: 'tags',
  leadsSearch: 'search',
  start: 'start',
  end: 'end',
  excludeOutOfOffice: 'excludeOutOfOffice',
  mutateOperation: 'operation',
  mutateStatus: 'status',
  oauthState: 'state',
} as const;
export type NameKey = keyof typeof GENERIC;

export interface Reading {
  profileName?: string;
  baseUrl?: string;
  names: Record<NameKey, Named>;
  operations: Profile['operations'];
  declarations: Profile['declarations'];
  /** The declared success status of an endpoint or referenced operation (by id, else `*`). */
  successStatus(id: string): number | undefined;
  businessRuleErrorCode?: string;
  sendingDays?: Profile['names']['sendingDays'];
}

function declaredNames(n: Profile['names']): Partial<Record<NameKey, string>> {
  return {
    ...n.list,
    leadsSearch: n.leadsSearchParam,
    ...n.analytics,
    mutateOperation: n.mutate.operation,
    mutateStatus: n.mutate.status,
    oauthState: n.oauthStatusStateParam,
  };
}

export function readingOf(profile?: VendorProfile): Reading {
  const declared = profile ? declaredNames(profile.names) : {};
  const names = Object.fromEntries(
    (Object.keys(GENERIC) as NameKey[]).map((k) => [k, declared[k] ? { name: declared[k], declared: true } : { name: GENERIC[k], declared: false }]),
  ) as Record<NameKey, Named>;
  const statuses = profile?.declarations.successStatus ?? {};
  return {
    profileName: profile?.name,
    baseUrl: profile?.baseUrl,
    names,
    operations: profile?.operations ?? {},
    declarations: profile?.declarations ?? {},
    successStatus: (id) => statuses[id] ?? statuses['*'],
    businessRuleErrorCode: profile?.names.businessRuleErrorCode,
    sendingDays: profile?.names.sendingDays,
  };
}
