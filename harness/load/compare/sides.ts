import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Profile } from '../../ground/profile-schema.ts';
import type { Redactor } from '../../client/redact.ts';
import { resolveSecret } from '../../ground/profile.ts';
import { KitError } from '../../ground/errors.ts';
import { EMBEDDED_CAPACITY_LIMIT, KIT_BIN, startChildReference } from '../embedded-target.ts';
import { canReadCpu, metricsProbe, pidProbe, type CpuProbe } from './proc-cpu.ts';
import type { ControlEndpoint } from '../../ground/control-endpoint.ts';

// The two sides of `compare`: what `--base` and `--head` name, and the running target each one
// becomes. A URL is a running target (its CPU only when its profile says where to read it); `.`,
// a directory and a git revision are checkouts of this kit whose own reference is served through
// that checkout's own bin, in a child process whose CPU time /proc gives. A revision is checked
// out in a temporary git worktree beside this checkout (its node_modules linked from here, so no
// network is needed) and removed when the side stops.

const git = promisify(execFile);
const KIT_ROOT = dirname(dirname(KIT_BIN));

export type SideSpec =
  | { kind: 'url'; text: string; url: string }
  | { kind: 'this'; text: string; dir: string }
  | { kind: 'dir'; text: string; dir: string }
  | { kind: 'rev'; text: string; commit: string };

/** What the report says a side was. */
export interface SideInfo {
  flag: 'base' | 'head';
  given: string;
  kind: SideSpec['kind'];
  /** the commit served (a revision, or a checkout's HEAD when it is a git checkout) */
  commit?: string;
  baseUrl: string;
  /** where its CPU time was read, or why it was not */
  cpu: string;
  slowdown?: number;
}

export interface ServedSide {
  info: SideInfo;
  baseUrl: string;
  control?: ControlEndpoint;
  profile: Profile;
  cpu?: CpuProbe;
  stop(): Promise<void>;
}

/** `--base X` / `--head X` read: a URL, `.`, a directory holding a checkout of this kit, or a git revision of this checkout. */
export async function parseSide(text: string, flag: 'base' | 'head'): Promise<SideSpec> {
  if (/^https?:\/\//i.test(text)) {
    try {
      return { kind: 'url', text, url: new URL(text).toString().replace(/\/$/, '') };
    } catch {
      throw new KitError(`--${flag} ${text}: not a valid URL`);
    }
  }
  if (text === '.') return { kind: 'this', text, dir: KIT_ROOT };
  const dir = resolve(text);
  if (existsSync(dir) && statSync(dir).isDirectory()) {
    if (!existsSync(join(dir, 'bin', 'outreach-conformance.js'))) throw new KitError(`--${flag} ${text}: a directory, but not a checkout of this kit (no bin/outreach-conformance.js)`);
    return { kind: 'dir', text, dir };
  }
  const commit = await revParse(text);
  if (!commit) throw new KitError(`--${flag} ${text}: not a URL, a directory, "." or a git revision of this checkout (${KIT_ROOT})`);
  return { kind: 'rev', text, commit };
}

async function revParse(rev: string, cwd = KIT_ROOT): Promise<string | undefined> {
  if (rev.startsWith('-')) return undefined;
  try {
    const { stdout } = await git('git', ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { cwd });
    return stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}

export interface ServeOptions {
  flag: 'base' | 'head';
  /** the profile of a URL side (names, workspaces or control, rate limit, load.cpu) */
  profile: Profile;
  /** the kit's reference profile, for the sides it serves */
  referenceProfile: Profile;
  redactor: Redactor;
  /** extra CPU per request of a served reference (a known regression) */
  slowdown?: number;
  log?(line: string): void;
}

/** The side running: a served reference (child process, raised rate limit) or the URL's target. */
export async function serveSide(spec: SideSpec, o: ServeOptions): Promise<ServedSide> {
  checkSlowdown(spec, o.flag, o.slowdown);
  if (spec.kind === 'url') {
    const profile = { ...o.profile, baseUrl: spec.url, embedded: false };
    const control = profile.control ? { baseUrl: profile.control.baseUrl, token: resolveSecret(profile.control.token, 'control.token') } : undefined;
    if (control) o.redactor.add(control.token);
    const cpu = urlProbe(profile, o.flag);
    return { info: { flag: o.flag, given: spec.text, kind: 'url', baseUrl: spec.url, cpu: cpu ? cpu.describe : 'not measured: the profile gives neither load.cpu.pid nor load.cpu.metricsUrl' }, baseUrl: spec.url, control, profile, cpu, stop: async () => {} };
  }
  let dir = spec.kind === 'rev' ? undefined : spec.dir;
  let cleanup = async () => {};
  if (spec.kind === 'rev') {
    const wt = await checkoutRevision(spec.commit, o.log);
    dir = wt.dir;
    cleanup = wt.remove;
  }
  try {
    const commit = spec.kind === 'rev' ? spec.commit : await revParse('HEAD', dir);
    const name = `the reference of --${o.flag} ${spec.text}`;
    const child = await startChildReference({ bin: join(dir!, 'bin', 'outreach-conformance.js'), rateLimit: EMBEDDED_CAPACITY_LIMIT, slowdown: o.slowdown, name });
    o.redactor.add(child.control.token);
    // The served reference's own choices, and the raised limit it was started with (outside the spec).
    const profile: Profile = { ...o.referenceProfile, embedded: true, baseUrl: child.baseUrl, rateLimit: { requests: EMBEDDED_CAPACITY_LIMIT.requests, windowSeconds: EMBEDDED_CAPACITY_LIMIT.windowMs / 1000 } };
    return {
      info: { flag: o.flag, given: spec.text, kind: spec.kind, commit, baseUrl: child.baseUrl, cpu: `pid ${child.pid} (/proc)`, ...(o.slowdown ? { slowdown: o.slowdown } : {}) },
      baseUrl: child.baseUrl,
      control: child.control,
      profile,
      cpu: pidProbe(child.pid),
      stop: async () => {
        await child.stop();
        await cleanup();
      },
    };
  } catch (e) {
    await cleanup();
    throw e;
  }
}

/** A slowdown is an option of the reference the kit serves; a running target cannot take one. */
export function checkSlowdown(spec: SideSpec, flag: string, slowdown: number | undefined): void {
  if (slowdown && spec.kind === 'url') throw new KitError(`--${flag}-slowdown applies to a reference the kit serves (a directory, "." or a git revision), not to the running target at ${spec.url}`);
}

/** The profile's load.cpu as a probe; a pid that this machine cannot read is refused, named. */
function urlProbe(profile: Profile, flag: string): CpuProbe | undefined {
  const cpu = profile.load?.cpu;
  if (cpu?.pid !== undefined) {
    if (!canReadCpu(cpu.pid)) throw new KitError(`load.cpu.pid ${cpu.pid} (profile of --${flag}): no such process readable on this machine`);
    return pidProbe(cpu.pid);
  }
  if (cpu?.metricsUrl) return metricsProbe(cpu.metricsUrl);
  return undefined;
}

/** A revision of this checkout in a temporary worktree, node_modules linked from here; `remove` deletes it. */
async function checkoutRevision(commit: string, log?: (line: string) => void): Promise<{ dir: string; remove(): Promise<void> }> {
  const parent = await mkdtemp(join(tmpdir(), 'oc-compare-'));
  const dir = join(parent, 'kit');
  try {
    await git('git', ['worktree', 'add', '--detach', dir, commit], { cwd: KIT_ROOT });
  } catch (e) {
    await rm(parent, { recursive: true, force: true });
    throw new KitError(`cannot check out ${commit} in a temporary worktree: ${(e as { stderr?: string }).stderr?.trim() || (e as Error).message}`);
  }
  log?.(`checked out ${commit.slice(0, 12)} in ${dir}`);
  if (!existsSync(join(dir, 'node_modules'))) await symlink(join(KIT_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return {
    dir,
    remove: async () => {
      await git('git', ['worktree', 'remove', '--force', dir], { cwd: KIT_ROOT }).catch(() => undefined);
      await rm(parent, { recursive: true, force: true });
      await git('git', ['worktree', 'prune'], { cwd: KIT_ROOT }).catch(() => undefined);
    },
  };
}
