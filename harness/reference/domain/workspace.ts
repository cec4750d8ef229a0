// A workspace (organization), its plan limits and its API keys, as the store keeps them.
export const LIMIT_TYPES = [
  'monthly_emails',
  'active_contacts',
  'ai_credits',
  'email_validation',
  'monthly_imports',
  'lead_finder_credits',
] as const;
export type LimitType = (typeof LIMIT_TYPES)[number];

export interface Workspace {
  id: string; // organizationId
  name: string;
  timezone: string;
  plan: string;
  apiAccess: boolean;
  /** null = unlimited */
  limits: Record<LimitType, number | null>;
  used: Record<LimitType, number>;
  createdAt: number;
}

export interface ApiKey {
  id: string;
  orgId: string;
  name: string;
  scopes: string[];
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}
