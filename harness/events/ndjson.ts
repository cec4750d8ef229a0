// The event stream on disk: one JSON object per line (`reports/<run>/events.ndjson`).
//
// Writing is synchronous (one write(2) per event): a crash or a kill loses at most the line
// being written, never buffered history, and events land in the order they were emitted.
// Reading is tolerant of exactly that failure: a truncated last line is dropped.

import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { EventSink, RunEvent } from '../ground/events.ts';

export interface NdjsonSink extends EventSink {
  /** Closes the file; events emitted afterwards are dropped and counted in `dropped`. */
  close(): Promise<void>;
  readonly path: string;
  /** Events emitted after close (a late background request); never written. */
  readonly dropped: number;
}

/**
 * Creates (truncates) `path`, creating its directory, and appends one line per event.
 * With `append`, keeps what is there: the CLI writes run-start, the test worker the checks,
 * the CLI again run-end, one after the other into one stream.
 */
export function createNdjsonSink(path: string, opts: { append?: boolean } = {}): NdjsonSink {
  mkdirSync(dirname(path), { recursive: true });
  let fd: number | undefined = openSync(path, opts.append ? 'a' : 'w');
  let dropped = 0;
  return {
    path,
    get dropped() {
      return dropped;
    },
    emit(event: RunEvent): void {
      if (fd === undefined) {
        dropped++;
        return;
      }
      // JSON.stringify escapes every newline inside strings, so one event is one line.
      const buf = Buffer.from(JSON.stringify(event) + '\n', 'utf8');
      let off = 0;
      while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    },
    async close(): Promise<void> {
      if (fd === undefined) return;
      const f = fd;
      fd = undefined;
      closeSync(f);
    },
  };
}

/**
 * Reads an events.ndjson file. Blank lines are ignored; a last line that does not parse (the
 * writer was killed mid-line) is dropped. A bad line anywhere else means the file is corrupt:
 * that throws, naming the line.
 */
export async function readEvents(ndjsonPath: string): Promise<RunEvent[]> {
  const text = await readFile(ndjsonPath, 'utf8');
  return parseEvents(text, ndjsonPath);
}

export function parseEvents(text: string, source = 'events.ndjson'): RunEvent[] {
  const lines = text.split('\n');
  let last = lines.length - 1;
  while (last >= 0 && lines[last]!.trim() === '') last--;
  const events: RunEvent[] = [];
  for (let i = 0; i <= last; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      if (i === last) break; // truncated by a crash: drop it
      throw new Error(`${source}:${i + 1}: not a JSON line (${(err as Error).message})`);
    }
    if (value === null || typeof value !== 'object' || typeof (value as { type?: unknown }).type !== 'string') {
      if (i === last) break;
      throw new Error(`${source}:${i + 1}: not an event (no "type")`);
    }
    events.push(value as RunEvent);
  }
  return events;
}
