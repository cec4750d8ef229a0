import { MACHINE_CAUSES } from '../ground/machine-causes.ts';
import { connectSink, imapUnavailableReason } from '../sinks/index.ts';
import type { Check } from '../ground/check.ts';
import type { Profile } from '../ground/profile-schema.ts';

// Before the checks: what this machine lacks that some of them need, said on the plan's lines with
// what to install, so a run that will check less because of it says so from its first lines
// (the summary then counts, as measured, the skips it caused: harness/report/machine-gaps.ts).

/** A check that needs an IMAP server at the sinks: it reads mail there, or it needs a mailbox the target verified (its IMAP login among what it tries). */
const needsImapServer = (c: Check) => [...c.features, ...(c.uses ?? [])].includes('imap') || (c.features.includes('sinks') && c.features.includes('decl:declarations.verificationStatus'));

/** The line that says what this machine lacks and what it may cost (a prediction), or undefined where it lacks nothing the run needs. */
export async function machineLine(profile: Profile, checks: readonly Check[], sinksUrl: string | undefined): Promise<string | undefined> {
  if (!profile.features.sinks) return undefined;
  const noImap = sinksUrl ? await remoteImapReason(sinksUrl) : imapUnavailableReason();
  if (!noImap) return undefined;
  const at = checks.filter(needsImapServer).length;
  if (!at) return undefined;
  const cause = MACHINE_CAUSES['no-imap-server'];
  return `this machine: ${cause.name} (${noImap}); predicted: up to ${at} of the ${checks.length} chosen checks need one (mail read over IMAP, or a mailbox the target verified) and will skip, counted as this machine's in the summary; ${cause.fix}`;
}

async function remoteImapReason(url: string): Promise<string | undefined> {
  const sink = await connectSink(url).catch(() => undefined);
  return sink && !sink.capabilities.imap ? (sink.capabilities.reason ?? 'the standalone sinks have no IMAP server') : undefined;
}
