import { ACCOUNT_INPUT_BOUNDS } from '../spec-model/schemas/index.ts';
import { NOT_DECLARED, type Reading } from './reading.ts';

// The schemas where the spec leaves values "not shown" (2.2 mailbox defaults, 2.3 warmup
// defaults, bounds and strategies, 2.5 required campaign fields and weekday numbering, 8 the
// leads list limit): the vendor's declarations written as JSON Schema keywords (default,
// minimum/maximum, enum, required, maxItems), each place the profile leaves open marked instead.

type Schema = Record<string, unknown>;
type Schemas = Record<string, Schema>;
type Declarations = Reading['declarations'];

const propertiesOf = (schemas: Schemas, name: string) => schemas[name]!.properties as Record<string, Schema>;
const either = (value: unknown, declared: Schema): Schema => (value === undefined ? NOT_DECLARED : declared);

/** Optional mailbox fields whose default is not shown (2.2: all but displayName and warmup; an omitted replyToAddress replies to the mailbox). */
const OPEN_MAILBOX_DEFAULTS = Object.entries(ACCOUNT_INPUT_BOUNDS)
  .filter(([field, b]) => !b.required && !['displayName', 'warmup', 'replyToAddress'].includes(field))
  .map(([field]) => field);

function mailboxCreate(schemas: Schemas, d: Declarations): void {
  const props = propertiesOf(schemas, 'AccountCreateInput');
  for (const field of OPEN_MAILBOX_DEFAULTS) {
    const value = d.mailboxDefaults?.[field];
    Object.assign(props[field]!, either(value, { default: value }));
  }
  // An omitted warmup is ON with the vendor's values (2.2); the default of the whole object.
  Object.assign(props.warmup!, either(d.warmupDefaults, { default: d.warmupDefaults }));
}

function warmup(schemas: Schemas, d: Declarations): void {
  const props = propertiesOf(schemas, 'WarmupInput');
  for (const [field, schema] of Object.entries(props)) {
    if (schema.type !== 'number') continue;
    const bounds = d.warmupBounds?.[field];
    Object.assign(schema, either(bounds, { minimum: bounds?.min, maximum: bounds?.max }));
  }
  const strategies = d.warmupValues?.strategy;
  Object.assign(props.strategy!, either(strategies, { enum: strategies }));
}

function campaignCreate(schemas: Schemas, d: Declarations): void {
  const body = schemas.CampaignCreateBody!;
  Object.assign(body, either(d.campaignRequiredFields, { required: d.campaignRequiredFields }));
  const leads = (body.properties as Record<string, Schema>).leads!;
  Object.assign(leads, either(d.campaignCreateMaxLeads, { maxItems: d.campaignCreateMaxLeads }));
}

/** How schedule.sendingDays numbers weekdays: the first number and the day it stands for. */
const NUMBERING = { '0-sunday': [0, 'Sunday'], '1-monday': [1, 'Monday'], '0-monday': [0, 'Monday'] } as const;

function sendingDays(schemas: Schemas, numbering: Reading['sendingDays']): void {
  let weekday: Schema = NOT_DECLARED;
  if (numbering) {
    const [first, day] = NUMBERING[numbering];
    weekday = { minimum: first, maximum: first + 6, description: `weekday, ${first} = ${day}` };
  }
  const schedules = [schemas.Schedule!, propertiesOf(schemas, 'CampaignCreateBody').schedule!, propertiesOf(schemas, 'CampaignPatchBody').schedule!];
  for (const schedule of schedules) Object.assign((schedule.properties as Record<string, Schema>).sendingDays!.items as Schema, weekday);
}

export function applyDeclarations(schemas: Schemas, r: Reading): void {
  sendingDays(schemas, r.sendingDays);
  mailboxCreate(schemas, r.declarations);
  warmup(schemas, r.declarations);
  campaignCreate(schemas, r.declarations);
}
