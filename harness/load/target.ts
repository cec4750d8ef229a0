import type { Profile } from '../ground/profile-schema.ts';
import type { ControlEndpoint } from '../ground/control-endpoint.ts';
import type { Redactor } from '../client/redact.ts';

// The load target as every load mode receives it: one shape for api, capacity, sendpath and
// compare's sides, so a new setting of the target is added in one place.

export interface LoadTarget {
  profile: Profile;
  baseUrl: string;
  /** the conformance-control API, when the target has it */
  control?: ControlEndpoint;
  /** every secret the run learns is added to it before anything is written */
  redactor: Redactor;
  /** run prefix: names of what the load creates start with it */
  prefix: string;
  seed: number;
}
