import { z } from 'zod';
import { CAMPAIGN_STATUSES } from './spec-model/schemas/campaigns.ts';

// The target profile: everything the kit knows about a target besides what it answers.
// Names the spec leaves "not shown" are declared here, never assumed by the checks.

/** A secret given inline or read from an environment variable: "abc" or { "env": "NAME" }. */
export const Secret = z.union([z.string().min(1), z.object({ env: z.string().min(1) }).strict()]);
export type Secret = z.infer<typeof Secret>;
/** Where a profile holds `Secret` values (`*`: any array index); reports redact exactly these. */
export const PROFILE_SECRET_PATHS: readonly string[] = ['workspaces.*.apiKey', 'control.token'];

const HttpMethod = z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A referenced operation whose shape the spec does not give ("not shown").
 * `path` is a template with {placeholders} (e.g. "/v1/campaigns/{id}/pause").
 * `fields` maps the kit's logical request field names to the target's names;
 * `result` maps logical result names to dotted paths in the response body ("data", "key.secret").
 */
export const Operation = z
  .object({
    method: HttpMethod,
    path: z.string().startsWith('/'),
    list: z.boolean().default(false),
    fields: z.record(z.string(), z.string()).default({}),
    result: z.record(z.string(), z.string()).default({}),
  })
  .strict();
export type Operation = z.infer<typeof Operation>;

import { REFERENCED_OPERATIONS } from './spec-model/referenced-operations.ts';

export const Workspace = z
  .object({
    /** A key of this workspace holding all:all and apikeys:manage. */
    apiKey: Secret,
    apiKeyId: z.string().optional(),
    organizationId: z.string().optional(),
    /** Its name and IANA timezone as the dashboard shows them: GET /v1/workspace must answer them (unstated: not compared). */
    name: z.string().optional(),
    timezone: z.string().optional(),
  })
  .strict();

export const Profile = z
  .object({
    name: z.string().min(1),
    /** Base URL of the API, without /v1 (e.g. "https://staging.example.com"). Ignored when embedded. */
    baseUrl: z.string().url().optional(),
    /** Boot the kit's own reference target and run against it. */
    embedded: z.boolean().default(false),
    rateLimit: z
      .object({
        requests: z.number().int().positive().default(120),
        windowSeconds: z.number().positive().default(60),
      })
      .strict()
      .default({ requests: 120, windowSeconds: 60 }),
    /** Workspaces given by hand (at least two unless the control API provisions them). */
    workspaces: z.array(Workspace).default([]),
    /** The optional conformance-control API v1 (docs/ARCHITECTURE.md, "Control API v1"). */
    control: z
      .object({ baseUrl: z.string().url(), token: Secret })
      .strict()
      .optional(),
    /** How many workspaces to provision through the control API. */
    poolSize: z.number().int().min(2).max(200).default(12),
    names: z
      .object({
        list: z
          .object({ cursor: z.string(), pageSize: z.string(), status: z.string(), tags: z.string() })
          .strict(),
        leadsSearchParam: z.string(),
        analytics: z.object({ start: z.string(), end: z.string(), excludeOutOfOffice: z.string() }).strict(),
        mutate: z.object({ operation: z.string(), status: z.string() }).strict(),
        /** error.code of the 400 business-rule refusals (part 7); omit when it varies. */
        businessRuleErrorCode: z.string().optional(),
        /** How schedule.sendingDays numbers weekdays. */
        sendingDays: z.enum(['0-sunday', '1-monday', '0-monday']).optional(),
        oauthStatusStateParam: z.string().optional(),
      })
      .strict(),
    operations: z.partialRecord(z.enum(REFERENCED_OPERATIONS), Operation).default({}),
    /**
     * The target's own answers where the spec says "not shown" (each optional; a check holds the
     * target to what it declares here, and skips what it does not declare).
     */
    declarations: z
      .object({
        /** Values of optional mailbox fields when omitted at create (2.2: "Defaults ... not shown"). */
        mailboxDefaults: z.record(z.string(), z.unknown()).optional(),
        /** Warmup field values when warmup is omitted (2.3: "defaults ... not shown"). */
        warmupDefaults: z.record(z.string(), z.unknown()).optional(),
        /** Allowed values of warmup strategy, phase and poolAccess (2.3). */
        warmupValues: z.object({ strategy: z.array(z.string()), phase: z.array(z.string()), poolAccess: z.array(z.string()) }).partial().strict().optional(),
        /** Inclusive bounds of numeric warmup fields (2.3). */
        warmupBounds: z.record(z.string(), z.object({ min: z.number(), max: z.number() }).strict()).optional(),
        /** Campaign create fields that are required (2.5: "Required fields ... not shown"). */
        campaignRequiredFields: z.array(z.string()).optional(),
        /** Fields every element of the batch create `errors` array carries (4.2). */
        batchErrorFields: z.array(z.string()).optional(),
        /**
         * How the max lengths of 2.2's strings count (the spec says "max 128", "max 254 chars", not
         * what a character is): `characters` ("é" is one) or `bytes` (UTF-8: "é" is two).
         */
        lengthUnit: z.enum(['characters', 'bytes']).optional(),
        /**
         * Mailbox status after background verification (3.2: "Mapping of verification outcomes
         * to status values: not shown"): `succeeded` when SMTP and IMAP both work, `failed` when
         * either refuses the credentials or cannot be reached.
         */
        verificationStatus: z.object({ succeeded: z.string().min(1), failed: z.string().min(1) }).strict().optional(),
        /**
         * How GET /v1/leads/search counts rows when a fragment matches several leads of one
         * campaign (4.4 "one row per campaign containing the email"): `per-campaign` (one row per
         * campaign) or `per-lead` (one row per matching lead per campaign).
         */
        leadSearchRows: z.enum(['per-campaign', 'per-lead']).optional(),
        /** The status of a lead that was never contacted (2.6: value seen `not_contacted`). */
        newLeadStatus: z.string().min(1).optional(),
        /**
         * The lead-search statuses that come after discovery, where `discoveryFinished` is true
         * (3.4 "becomes true when discovery ends while later phases may continue"; the transitions
         * are not shown, and of the later phases 2.8 names only crawl and enrich as running after it).
         */
        leadSearchAfterDiscovery: z.array(z.enum(['processing', 'crawling', 'enriching', 'verifying'])).optional(),
        /**
         * The names written between double braces for a lead's first name and company name in a
         * step's subject and body (2.5: "merge variables written with double braces, such as
         * company name and first name"), e.g. `{ "firstName": "firstName" }` for `{{firstName}}`.
         */
        mergeVariables: z.object({ firstName: z.string().regex(/^[^{}\s]+$/), companyName: z.string().regex(/^[^{}\s]+$/) }).strict().optional(),
        /** What a merge variable the target does not know renders to: nothing, or left as written. */
        unknownMergeVariable: z.enum(['empty', 'verbatim']).optional(),
        /**
         * How many consecutive refused sends turn an active mailbox `failed` (3.2 "repeated sending
         * failures"; the number is not shown). A refused send is one the provider refuses as the
         * mailbox's own: the login, or the sender at MAIL FROM.
         */
        sendFailuresBeforeFailed: z.number().int().min(1).optional(),
        /**
         * What a recipient refused at RCPT TO counts as (not shown): a sending failure of the
         * mailbox (`mailbox`, counted toward sendFailuresBeforeFailed) or a bounce of that lead
         * alone (`lead`, the mailbox stays active).
         */
        recipientRefusal: z.enum(['mailbox', 'lead']).optional(),
        /**
         * Where a created campaign shows the id of a sequence step's variant (4.3 test email
         * `variantId`; 2.5 gives no variant shape): a dotted path in the `campaign` object of the
         * POST /v1/campaigns answer, `{step}` standing for the step's index, e.g.
         * `sequence.{step}.id` or `sequence.{step}.variants.0.id`.
         */
        variantIdPath: z.string().regex(/^[^.\s]+(\.[^.\s]+)*$/, 'a dotted path such as sequence.{step}.id').optional(),
        /**
         * Success status of each endpoint (4.1: "success status codes other than 201 for POST
         * /v1/accounts: not shown"), by endpoint or referenced operation id (`campaigns.create`,
         * `apikeys.create`), `*` for every endpoint not named; endpoints left out are not held.
         */
        successStatus: z.record(z.string(), z.number().int().min(200).max(299)).optional(),
        /** The most leads a campaign create takes in its `leads` list (8: "the size limit of the leads list in campaign creation: not shown"). */
        campaignCreateMaxLeads: z.number().int().min(1).optional(),
        /** Largest message (bytes) GET /v1/emails/{id} returns inline; larger ones answer 413 (4.5). */
        emailBodyInlineMax: z.number().int().min(1).optional(),
        /**
         * The target's warmup sends real mail (2.1 "warmup has its own budget", 3.2 "warmup skips"
         * a paused mailbox; how warmup sends is not shown): through the mailbox's own SMTP login
         * (the kit's sink), to addresses of `poolAddress`, a pattern where `*` stands for any run
         * of characters (e.g. `warmup-*@pool.example.test`). Declared, the kit reads warmup at the
         * sink; left out, the checks that need it skip, naming it.
         */
        warmupMail: z.object({ poolAddress: z.string().regex(/^[^@\s]+@[^@\s]+$/, 'an address pattern such as warmup-*@pool.example.test') }).strict().optional(),
        /** Open pixel and click redirect served by the target when trackOpens / trackClicks (2.5). */
        tracking: z.object({ openPixel: z.boolean(), clickRedirect: z.boolean() }).partial().strict().optional(),
        /**
         * The target's sending choices where the spec is silent (lead status after a send or a
         * reply, day boundaries of caps, slow-ramp formula, retry policy), for the report and for
         * the checks that read them. Two the kit holds a target to (2.6 leaves the set of lead
         * statuses open): `leadStatusAfterSend`, the status a lead in a platform-managed status
         * takes when a step of its sequence is sent to it, and `leadStatusAfterReply`, the one it
         * takes when its reply is read (leave either out where it depends on the step or the reply).
         * `imapPollSeconds`: how often the target reads a mailbox's inbox; without a control API
         * the kit waits that much longer for a reply, bounce or auto-reply to be read.
         */
        sending: z
          .object({ leadStatusAfterSend: z.string().min(1).optional(), leadStatusAfterReply: z.string().min(1).optional(), imapPollSeconds: z.number().positive().optional() })
          .catchall(z.unknown())
          .optional(),
        /**
         * Analytics rules where the spec is silent (4.6 "the exact clamping rule behind
         * period.clamped: not shown"): retentionDays, the clamping rule, and the target's
         * counting choices (default window, rate base, what is not delivered, positive statuses).
         * `clamping` the kit can hold a target to: `days-before-today` (a window reaching past
         * retention starts at local midnight retentionDays days before today) or
         * `days-including-today` (retentionDays whole days, today included); another value is
         * shown in the report and its check skips. `coarsening` (4.6 "long windows are coarsened
         * automatically", how long not given): the longest window in whole days the time series
         * answers by day (`day`) and by week (`week`); a longer one asked by day is answered by
         * week (or month past `week`), one asked by week by month. `topCampaignsBy` (2.10 gives
         * topCampaigns' fields, not which campaigns make the top): what the overview ranks them by;
         * `sent` the kit can hold (a campaign that sent in the window is left out only behind ones
         * that sent as many), another value is shown in the report.
         */
        analytics: z
          .looseObject({
            retentionDays: z.number().int().min(1),
            clamping: z.string().min(1),
            topCampaignsBy: z.string().min(1).optional(),
            coarsening: z
              .object({ day: z.number().int().min(1), week: z.number().int().min(1) })
              .strict()
              .refine((c) => c.week >= c.day, { message: 'week must be at least day (a window is coarsened to weeks before months)' })
              .optional(),
          })
          .optional(),
        /**
         * Transition tables where the spec shows none (3.1 "transitions for pause, stop, complete,
         * fail and schedule: not shown"; 3.3 "transitions of platform-managed lead statuses: not
         * shown"), per resource: each status to the statuses the target may move it to (a status
         * left out moves nowhere; lead statuses are the target's strings). The STATE-TABLE checks drive what they can
         * over the wire and hold every status change they read back to the table; without a table
         * for a resource its check skips, naming the field.
         */
        transitions: z
          .object({
            campaign: z.partialRecord(z.enum(CAMPAIGN_STATUSES), z.array(z.enum(CAMPAIGN_STATUSES))),
            lead: z.record(z.string().min(1), z.array(z.string().min(1))),
          })
          .partial()
          .strict()
          .optional(),
      })
      .strict()
      .default({}),
    features: z
      .object({
        /** The target's mailboxes can reach the kit's sinks (host below). */
        sinks: z.boolean().default(false),
        imap: z.boolean().default(false),
        oauth: z.boolean().default(false),
        testEmail: z.boolean().default(false),
      })
      .strict()
      .default({ sinks: false, imap: false, oauth: false, testEmail: false }),
    sinks: z
      .object({
        /** The address the target uses to reach the kit's sinks. */
        host: z.string().default('127.0.0.1'),
      })
      .strict()
      .optional(),
    /** Load runs (`outreach-conformance load`): the API mix and the thresholds that fail a run. */
    load: z
      .object({
        /** flow name -> weight (harness/load/generator/flows.ts names the flows); flows not named do not run */
        mix: z.record(z.string(), z.number().min(0)).optional(),
        /** e.g. "p99<300ms", "errors<0.1%"; flags given with --threshold replace these */
        thresholds: z.array(z.string()).optional(),
        /** where `compare` reads the target's CPU time: its process id on this machine, or a Prometheus text endpoint with process_cpu_seconds_total */
        cpu: z
          .object({ pid: z.number().int().positive().optional(), metricsUrl: z.string().url().optional() })
          .strict()
          .refine((c) => c.pid !== undefined || c.metricsUrl !== undefined, { message: 'give "pid" or "metricsUrl"' })
          .optional(),
      })
      .strict()
      .optional(),
    /**
     * Written by `init --base-url`: per field it probed or holds as a placeholder (a JSON pointer
     * such as `/names/list/pageSize`), whether the target's answers proved its value (`observed`)
     * or not (`not found`: the file holds the starter's placeholder, or leaves the field out);
     * `declared`: the user stated the value. A profile holding a value at a field marked
     * `not found` is refused on load (harness/ground/profile.ts): a placeholder is not a
     * declaration. Checks never read it; `controlExtensions` is what the control API's GET
     * /capabilities announced.
     */
    observed: z
      .object({
        fields: z.record(z.string().startsWith('/'), z.enum(['observed', 'not found', 'declared'])),
        controlExtensions: z.array(z.string()).optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (!p.embedded && !p.baseUrl) ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: 'required unless "embedded" is true' });
    if (!p.embedded && !p.control && p.workspaces.length < 2)
      ctx.addIssue({ code: 'custom', path: ['workspaces'], message: 'give at least two workspaces, or a "control" API that creates them' });
  });
export type Profile = z.infer<typeof Profile>;
export type ProfileInput = z.input<typeof Profile>;
