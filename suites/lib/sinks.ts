import type { CheckContext } from '../../harness/ground/check.ts';
import type { MailSink } from '../../harness/sinks/index.ts';

/** The kit's mail sinks the runner started for this run (undefined when it did not). */
export function mailSinks(ctx: Pick<CheckContext, 'sinks'>): MailSink | undefined {
  return ctx.sinks as MailSink | undefined;
}
