// The shapes the send-path load's modules pass between them: what a caller asks for, what it gets
// back, and the run's mailboxes, leads and arrivals.
import type { Profile } from '../../ground/profile-schema.ts';
import type { ControlEndpoint } from '../../ground/control-endpoint.ts';
import type { MailSink } from '../../sinks/index.ts';
import type { SendpathStats, Violation } from '../report/types.ts';

export interface SendpathLoadOptions {
  baseUrl: string;
  profile: Profile;
  /** the conformance-control API, when the target has it */
  control?: ControlEndpoint;
  /** a workspace key (used when there is no control API; with control, a fresh workspace is created) */
  apiKey?: string;
  /** started by the caller, reachable by the target (profile sinks.host) */
  sink: MailSink;
  mailboxes: number;
  leads: number;
  /** default 2: the leads split over campaigns that SHARE every mailbox (spec 2.1: gaps and caps across campaigns) */
  campaigns?: number;
  /** sendingGapMinutes of every mailbox (default: 5 with control, 1 without) */
  gapMinutes?: number;
  /** maxEmailsPerDay of every mailbox (default 200; 1..200) */
  capPerDay?: number;
  /** sequence steps (default 1) */
  steps?: number;
  /** bound in wall time over the whole run (default 10 min) */
  maxWallMs?: number;
  /** bound in simulated time with control (default 14) */
  maxSimulatedDays?: number;
  /** a seed for the names of mailboxes (default: random) */
  seed?: number;
  onProgress?(p: { sent: number; expected: number; simulatedMinutes?: number; wallMs: number }): void;
}

export type SendpathStop = 'complete' | 'max-wall' | 'max-simulated-days' | 'stalled';

export interface SendpathLoadResult {
  stats: SendpathStats;
  violations: Violation[];
  /** wall time of the whole run, setup included */
  wallMs: number;
  /** wall time of the sending phase (stepping the clock, or waiting in real time) */
  sendingWallMs: number;
  /** requests to the target's API (control calls excluded) */
  setupRequests: number;
  /** requests to the control API (0 without it) */
  controlRequests: number;
  /** why the sending phase ended */
  stopped: SendpathStop;
  /** messages expected at the sink: leads x steps */
  expected: number;
  /** distinct expected (lead, step) messages that arrived */
  delivered: number;
  /** target time the sending phase covered (ms), from the campaigns' start to its end */
  targetMs: number;
  /** ms of target time an ideal target needs for every expected message (see analyzeSendpath) */
  idealMs: number;
  /** with control: seconds per clock step */
  stepSeconds?: number;
  /** the schedule's (and, with control, the workspace's) timezone: the day of the caps */
  timezone: string;
  gapMinutes: number;
  capPerDay: number;
  campaigns: number;
  steps: number;
  /** messages from the run's mailboxes that are not an expected (lead, step): other recipients or no step marker */
  unexpected: number;
  /** latencies above the histogram's highest value (one hour), recorded as one hour */
  clampedLatencies: number;
  /** what the reader should know: unconfirmed verification, what was not reached, ... */
  notes: string[];
}

/** A mailbox of the run, as created at the target and logging in to the sink. */
export interface Box {
  id: string;
  address: string;
  smtpUser: string;
}

export interface Lead {
  address: string;
  campaign: number;
}

/** One message of the run as the sink saw it, with bounds on when it left (target time, ms). */
export interface ArrivalRecord {
  /** index into the run's mailboxes */
  mailbox: number;
  /** index into the run's leads */
  lead: number;
  /** 0-based step */
  step: number;
  /** the date the run gives it: the clock step it was seen at (simulated), its arrival (real time) */
  at: number;
  /** it left at or after this */
  lo: number;
  /** it left at or before this */
  hi: number;
}
