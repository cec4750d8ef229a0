// Embedded SQLite (better-sqlite3, WAL). One database per reference instance.
// Conventions for resource tables: `id` (uuid text, primary key), `org_id` (the workspace),
// `created_at` / `updated_at` (epoch ms from the injectable clock; created_at is unique per
// instance thanks to Clock.stamp(), which the keyset pagination relies on together with id),
// typed columns for what is filtered or joined, and `doc` (JSON text) for the rest.
import Database from 'better-sqlite3';

export type DB = Database.Database;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS workspaces (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, timezone TEXT NOT NULL, plan TEXT NOT NULL,
  api_access INTEGER NOT NULL, limits TEXT NOT NULL, used TEXT NOT NULL, created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS api_keys (
  id TEXT PRIMARY KEY, org_id TEXT NOT NULL, name TEXT NOT NULL, scopes TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE, prefix TEXT NOT NULL, created_at INTEGER NOT NULL,
  last_used_at INTEGER, revoked_at INTEGER
);
CREATE INDEX IF NOT EXISTS api_keys_org ON api_keys(org_id, created_at, id);
CREATE TABLE IF NOT EXISTS idempotency (
  scope TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, state TEXT NOT NULL,
  status INTEGER, headers TEXT, body TEXT, created_at INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE TABLE IF NOT EXISTS tags (
  id TEXT PRIMARY KEY, org_id TEXT NOT NULL, name TEXT NOT NULL, color TEXT NOT NULL, created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS campaigns (
  id TEXT PRIMARY KEY, org_id TEXT NOT NULL, name TEXT NOT NULL, status TEXT NOT NULL,
  doc TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS campaigns_org ON campaigns(org_id, created_at, id);
CREATE TABLE IF NOT EXISTS campaign_tags (
  campaign_id TEXT NOT NULL, tag_id TEXT NOT NULL, PRIMARY KEY (campaign_id, tag_id)
);
CREATE TABLE IF NOT EXISTS leads (
  id TEXT PRIMARY KEY, org_id TEXT NOT NULL, campaign_id TEXT NOT NULL, email TEXT NOT NULL,
  email_lc TEXT NOT NULL, status TEXT NOT NULL, doc TEXT NOT NULL, created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL, last_contacted_at INTEGER, last_replied_at INTEGER, deleted_at INTEGER,
  -- set when the lead's sequence stops early (a reply under stopOnReply, a hard bounce, an unsubscribe)
  seq_stopped_at INTEGER
);
CREATE INDEX IF NOT EXISTS leads_campaign ON leads(campaign_id, created_at, id);
CREATE INDEX IF NOT EXISTS leads_email ON leads(org_id, email_lc);
CREATE TABLE IF NOT EXISTS accounts (
  id TEXT PRIMARY KEY, org_id TEXT NOT NULL, email_address TEXT NOT NULL, email_lc TEXT NOT NULL UNIQUE,
  provider TEXT NOT NULL, status TEXT NOT NULL, doc TEXT NOT NULL, secrets TEXT NOT NULL,
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS accounts_org ON accounts(org_id, created_at, id);
CREATE TABLE IF NOT EXISTS account_tags (
  account_id TEXT NOT NULL, tag_id TEXT NOT NULL, PRIMARY KEY (account_id, tag_id)
);
CREATE TABLE IF NOT EXISTS emails (
  id TEXT PRIMARY KEY, org_id TEXT NOT NULL, account_id TEXT, campaign_id TEXT, lead_id TEXT,
  doc TEXT NOT NULL, body TEXT, deleted_at INTEGER, created_at INTEGER NOT NULL,
  -- direction 'sent' | 'received'; kind 'campaign' | 'test' | 'reply' | 'forward' | 'inbound';
  -- step: 0-based sequence step of a campaign email; sent_at: when it left (or arrived), on the clock
  message_id TEXT, in_reply_to TEXT, thread_id TEXT, direction TEXT, kind TEXT, step INTEGER, sent_at INTEGER
);
CREATE INDEX IF NOT EXISTS emails_org ON emails(org_id, created_at, id);
CREATE INDEX IF NOT EXISTS emails_account_sent ON emails(account_id, sent_at);
CREATE INDEX IF NOT EXISTS emails_lead ON emails(lead_id, step);
CREATE INDEX IF NOT EXISTS emails_message_id ON emails(message_id);
-- What happened to a campaign's mail, one row per event; analytics count these (never tallies).
-- type: sent | failed | open | click | reply | ooo | bounce_hard | bounce_soft | unsubscribe
CREATE TABLE IF NOT EXISTS events (
  id TEXT PRIMARY KEY, org_id TEXT NOT NULL, campaign_id TEXT, lead_id TEXT, account_id TEXT,
  email_id TEXT, step INTEGER, type TEXT NOT NULL, at INTEGER NOT NULL, data TEXT
);
CREATE INDEX IF NOT EXISTS events_campaign ON events(campaign_id, at);
CREATE INDEX IF NOT EXISTS events_org ON events(org_id, at);
-- Addresses and domains (lower case) the workspace never mails (managed in the dashboard).
CREATE TABLE IF NOT EXISTS blacklist (org_id TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (org_id, value));
CREATE TABLE IF NOT EXISTS lead_searches (
  id TEXT PRIMARY KEY, org_id TEXT NOT NULL, query TEXT NOT NULL, status TEXT NOT NULL,
  search_mode TEXT NOT NULL, max_results INTEGER NOT NULL, discovery_finished INTEGER NOT NULL,
  progress TEXT NOT NULL, error_message TEXT, completed_at INTEGER,
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS lead_searches_org ON lead_searches(org_id, created_at, id);
CREATE TABLE IF NOT EXISTS verify_jobs (
  account_id TEXT PRIMARY KEY, due_at INTEGER NOT NULL, gen INTEGER NOT NULL
);
-- Warmup mail (sending/warmup.ts), apart from \`emails\`: its own budget, never in the inbox,
-- the campaign cap or the gap. One row per attempt (sent or refused), at: on the clock.
CREATE TABLE IF NOT EXISTS warmup_sends (
  id TEXT PRIMARY KEY, org_id TEXT NOT NULL, account_id TEXT NOT NULL, recipient TEXT NOT NULL, at INTEGER NOT NULL, sent INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS warmup_sends_account ON warmup_sends(account_id, at);
CREATE TABLE IF NOT EXISTS oauth_states (
  state TEXT PRIMARY KEY, org_id TEXT NOT NULL, provider TEXT NOT NULL, created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL, account_id TEXT
);
`;

/** The store cannot open: better-sqlite3's native binding is missing or built for another Node. The message says what to run. */
export class StoreUnbuilt extends Error {
  override name = 'StoreUnbuilt';
}

const NOT_BUILT =
  "the reference target's SQLite (better-sqlite3) has no native binding for this Node: the install ran without its install scripts " +
  '(npm ci --ignore-scripts, pnpm, or an npm that holds back install scripts) or under another Node version. ' +
  'Run `npm rebuild better-sqlite3` (pnpm: `pnpm rebuild better-sqlite3`) and try again; a run against your own target (--profile) does not need it';

/** The addon's own load failures (the `bindings` package's, Node's ABI check) that a rebuild mends. */
const UNBUILT = /Could not locate the bindings file|better_sqlite3\.node|NODE_MODULE_VERSION/;

export function openDb(path: string): DB {
  let db: DB;
  try {
    db = new Database(path); // the native addon loads here, on the first database
  } catch (e) {
    if (UNBUILT.test((e as Error).message)) throw new StoreUnbuilt(NOT_BUILT);
    throw e;
  }
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);
  reusePrepared(db);
  return db;
}

/**
 * Every handler and background job prepares its SQL where it runs it; compiling the same text
 * again on every call was the reference's largest CPU cost. A statement compiled once is reused,
 * unless it is busy (an iterate() still open): that caller gets a fresh one. No caller changes a
 * statement's mode (pluck, raw, expand), so a shared statement behaves the same for all.
 */
function reusePrepared(db: DB): void {
  const compile = db.prepare.bind(db);
  const compiled = new Map<string, ReturnType<DB['prepare']>>();
  db.prepare = ((sql: string) => {
    const have = compiled.get(sql);
    if (have && !have.busy) return have;
    const fresh = compile(sql);
    if (!have) compiled.set(sql, fresh);
    return fresh;
  }) as DB['prepare'];
}
