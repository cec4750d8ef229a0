// What every step of one send-path run shares: its options, its wall-clock bound, the notes for
// the reader, the secrets to keep out of all text, and the one way it fails.
import { randomBytes } from 'node:crypto';
import { Recorder } from '../../client/recorder.ts';
import { Redactor } from '../../client/redact.ts';
import type { ApiResponse } from '../../ground/api-client.ts';
import { KitError } from '../../ground/errors.ts';
import { resolveSendpathOptions, type SendpathSettings } from './options.ts';
import type { SendpathLoadOptions } from './types.ts';

export interface SendpathRun {
  opts: SendpathLoadOptions;
  settings: SendpathSettings;
  /** marks this run's addresses and step subjects, so its messages are told from any other's at the sink */
  tag: string;
  wall0: number;
  wallEnd: number;
  wallLeft(): number;
  notes: string[];
  redactor: Redactor;
  /** counts the requests (the setup's and the control API's) */
  recorder: Recorder;
  /** the text with every secret the run learnt redacted */
  safe(s: string): string;
  fail(s: string): never;
}

/** Checks the options and starts the run's wall clock. */
export function openRun(opts: SendpathLoadOptions): SendpathRun {
  const settings = resolveSendpathOptions(opts);
  const wall0 = Date.now();
  const wallEnd = wall0 + settings.maxWallMs;
  const redactor = new Redactor();
  const recorder = new Recorder({ emit() {} }, redactor);
  const safe = (s: string) => redactor.text(s);
  return {
    opts,
    settings,
    tag: randomBytes(3).toString('hex'),
    wall0,
    wallEnd,
    wallLeft: () => wallEnd - Date.now(),
    notes: [],
    redactor,
    recorder,
    safe,
    fail: (s: string): never => {
      throw new KitError(safe(`sendpath load: ${s}`));
    },
  };
}

export const snip = (r: ApiResponse) => (r.text ?? '').slice(0, 300);
export const is2xx = (r: ApiResponse) => r.status >= 200 && r.status < 300;
