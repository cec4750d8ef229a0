// npm run house:walk [-- FILE:FUNCTION:PARAM] — follows one parameter through the calls that pass
// it on and counts how often it moves between the rooms of harness/house/rooms.ts and how often
// such a move climbs back up (to a room on a higher floor: one that imports more of the house).
// The default is `run`'s arguments, from harness/conformance/run.ts to the report files. It counts
// twice: at the grain of the ROOMS rows, and at the grain of folders (harness/<folder>/, suites/,
// bin/, ...: the rows of one folder made one room, importing what its rows may).
//
// What is followed: from a function, every call (in the order the code is written) one of whose
// arguments names the parameter, a variable made from it, or a member of either; in the callee,
// the parameters those arguments fill. The callee is the declaration the type checker resolves
// (an interface's method, a callback chosen as the program runs: the walk stops there). The walk
// does not enter the reference target (its entry is a stay of its own) nor a test file, and each
// function is walked once per set of parameters. A return to a caller that then passes the
// parameter on again is a stay too: the way back is part of the trip.

import ts from 'typescript';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REFERENCE, ROOMS } from './rooms.ts';

export interface Stay {
  room: string;
  file: string;
  fn: string;
}

export interface WalkCount {
  stays: Stay[];
  /** Consecutive stays in different rooms. */
  moves: number;
  /** Moves into a room on a higher floor than the one left. */
  climbs: number;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const RUN_WALK = 'harness/conformance/run.ts:runCommand:argv';

/** The room a file belongs to: the first row naming a prefix of it; the reference is one room. */
export function roomOf(file: string): string | undefined {
  if (file.startsWith(REFERENCE)) return 'reference';
  return ROOMS.find((r) => r.prefixes.some((p) => file.startsWith(p)))?.room;
}

/** A room's floor: 1 for a room that imports none of the house, else one above the highest it may import. */
export function floorOf(room: string, seen: readonly string[] = []): number {
  const row = ROOMS.find((r) => r.room === room);
  const below = (row?.may ?? []).filter((m) => !seen.includes(m)).map((m) => floorOf(m, [...seen, room]));
  return 1 + Math.max(0, ...below);
}

/** The folder a file belongs to: harness/<folder>/ under harness/, else its top folder (suites/, bin/, fixtures/). */
export function folderOf(file: string): string {
  const parts = file.split('/');
  const depth = parts[0] === 'harness' && parts.length > 2 ? 2 : 1;
  return parts.length > depth ? `${parts.slice(0, depth).join('/')}/` : file;
}

/** The folder of a ROOMS row (of its first prefix); the reference is its own folder. */
const folderOfRoom = (room: string) => folderOf(room === 'reference' ? REFERENCE : (ROOMS.find((r) => r.room === room)?.prefixes[0] ?? room));

/** A folder's floor: the rows of the folder made one room, which may import the folders its rows may (not itself). */
export function folderFloorOf(folder: string, seen: readonly string[] = []): number {
  const may = new Set(ROOMS.filter((r) => folderOfRoom(r.room) === folder).flatMap((r) => r.may.map(folderOfRoom)));
  const below = [...may].filter((m) => m !== folder && !seen.includes(m)).map((m) => folderFloorOf(m, [...seen, folder]));
  return 1 + Math.max(0, ...below);
}

/** Moves and climbs of a sequence of stays (by default at the grain of ROOMS rows, with their floors). */
export function countStays(stays: Stay[], floor: (room: string) => number = (r) => floorOf(r)): WalkCount {
  let moves = 0;
  let climbs = 0;
  for (let i = 1; i < stays.length; i++) {
    const [a, b] = [stays[i - 1]!.room, stays[i]!.room];
    if (a === b) continue;
    moves++;
    if (floor(b) > floor(a)) climbs++;
  }
  return { stays, moves, climbs };
}

/** The same stays counted at the grain of folders. */
export function countByFolder(stays: Stay[]): WalkCount {
  return countStays(
    stays.map((s) => ({ ...s, room: folderOf(s.file) })),
    (f) => folderFloorOf(f),
  );
}

type FnLike = ts.FunctionLikeDeclaration & { body: ts.Node };

function programOf(root: string): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(resolve(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  return ts.createProgram(config.fileNames, config.options);
}

const isTestFile = (file: string) => /\.test(-helper)?\.ts$/.test(file);

/** Walks `spec` (FILE:FUNCTION:PARAM) and returns its stays. */
export function walk(spec: string, root = ROOT): WalkCount {
  const [file, fnName, param] = spec.split(':') as [string, string, string];
  const program = programOf(root);
  const checker = program.getTypeChecker();
  const rel = (sf: ts.SourceFile) => relative(root, sf.fileName);
  const start = findFunction(program.getSourceFile(resolve(root, file)), fnName);
  if (!start) throw new Error(`no function ${fnName} in ${file}`);
  const index = start.parameters.findIndex((p) => p.name.getText() === param);
  if (index < 0) throw new Error(`${fnName} has no parameter ${param}`);

  const stays: Stay[] = [];
  const walked = new Set<string>();
  const stayIn = (fn: FnLike) => {
    const f = rel(fn.getSourceFile());
    const stay = { room: roomOf(f) ?? f, file: f, fn: nameOf(fn) };
    const last = stays.at(-1);
    if (!last || last.file !== stay.file || last.fn !== stay.fn) stays.push(stay);
  };

  const visit = (fn: FnLike, params: number[]) => {
    const key = `${fn.getSourceFile().fileName}:${fn.pos}:${params.join(',')}`;
    if (walked.has(key)) return;
    walked.add(key);
    stayIn(fn);
    const tracked = new Set<ts.Symbol>();
    const names = (n: ts.Node): boolean => {
      if (ts.isIdentifier(n)) {
        const s = ts.isShorthandPropertyAssignment(n.parent) ? checker.getShorthandAssignmentValueSymbol(n.parent) : checker.getSymbolAtLocation(n);
        if (s && tracked.has(s)) return true;
      }
      return !!ts.forEachChild(n, (c) => names(c) || undefined);
    };
    const bound = (name: ts.BindingName | undefined): ts.Symbol[] => {
      if (!name) return [];
      if (ts.isIdentifier(name)) return [checker.getSymbolAtLocation(name)].filter((s): s is ts.Symbol => !!s);
      return name.elements.flatMap((e) => (ts.isBindingElement(e) ? bound(e.name) : []));
    };
    for (const i of params) for (const s of bound(fn.parameters[i]?.name)) tracked.add(s);
    const calleeOf = (call: ts.CallExpression | ts.NewExpression): FnLike | undefined => {
      const d = checker.getResolvedSignature(call)?.declaration;
      if (!d || ts.isJSDocSignature(d) || !('body' in d) || !d.body) return undefined;
      const f = rel(d.getSourceFile());
      return f.startsWith('..') || f.includes('node_modules') || d.getSourceFile().isDeclarationFile || isTestFile(f) ? undefined : (d as FnLike);
    };
    const look = (n: ts.Node): void => {
      if (ts.isVariableDeclaration(n) && n.initializer && names(n.initializer)) for (const s of bound(n.name)) tracked.add(s);
      if ((ts.isCallExpression(n) || ts.isNewExpression(n)) && n.arguments) {
        const passed = n.arguments.flatMap((a, i) => (names(a) ? [i] : []));
        const callee = passed.length ? calleeOf(n) : undefined;
        if (callee) {
          const last = callee.parameters.length - 1;
          const filled = [...new Set(passed.map((i) => (last >= 0 && callee.parameters[last]!.dotDotDotToken ? Math.min(i, last) : i)).filter((i) => i <= last))];
          if (filled.length) {
            if (roomOf(rel(callee.getSourceFile())) === 'reference') stayIn(callee);
            else visit(callee, filled);
            stayIn(fn); // back in the caller: a stay only if it passes the parameter on again (see below)
          }
        }
      }
      ts.forEachChild(n, look);
    };
    ts.forEachChild(fn.body, look);
  };
  visit(start, [index]);
  // A return to a caller that passes nothing on is no stay: drop trailing returns and returns followed by another return.
  return countStays(stays.filter((s, i) => i === 0 || !isReturnOnly(stays, i)));
}

/** A stay that only returns through a caller: the next stay is also a return further up (or the trip ends). */
function isReturnOnly(stays: Stay[], i: number): boolean {
  const earlier = stays.slice(0, i).some((s) => s.file === stays[i]!.file && s.fn === stays[i]!.fn);
  if (!earlier) return false;
  const next = stays[i + 1];
  return !next || stays.slice(0, i).some((s) => s.file === next.file && s.fn === next.fn);
}

function findFunction(sf: ts.SourceFile | undefined, name: string): FnLike | undefined {
  let found: FnLike | undefined;
  const look = (n: ts.Node): void => {
    if (found) return;
    if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n)) && n.name?.getText() === name && n.body) found = n as FnLike;
    else if (ts.isVariableDeclaration(n) && n.name.getText() === name && n.initializer && (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer))) found = n.initializer as FnLike;
    else ts.forEachChild(n, look);
  };
  if (sf) look(sf);
  return found;
}

function nameOf(fn: ts.FunctionLikeDeclaration): string {
  if (fn.name) return fn.name.getText();
  if (ts.isConstructorDeclaration(fn)) return 'constructor';
  const p = fn.parent;
  return ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p) ? p.name.getText() : '(anonymous)';
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const spec = process.argv[2] ?? RUN_WALK;
  const w = walk(spec);
  let prev: string | undefined;
  for (const s of w.stays) {
    const mark = prev === undefined || prev === s.room ? '' : floorOf(s.room) > floorOf(prev) ? ' [up]' : ' [down]';
    console.log(`${s.room.padEnd(16)} ${s.file} ${s.fn}${mark}`);
    prev = s.room;
  }
  const byFolder = countByFolder(w.stays);
  console.log(`${spec}: ${w.stays.length} stays; ROOMS rows: ${w.moves} moves between rooms, ${w.climbs} climbs back up; folders: ${byFolder.moves} moves, ${byFolder.climbs} climbs back up`);
}
