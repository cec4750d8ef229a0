// The progress line of a long command (a conformance run, a load run): on a terminal one line
// rewritten in place at each update; otherwise a plain line at most every `plainEveryMs`
// (5 s by default) so a CI log is never silent for long, and always when forced (the last one).

export interface ProgressLine {
  elapsedMs: number;
  totalMs?: number;
  text: string;
}

export interface ProgressOptions {
  /** Least time between two plain (non-terminal) lines; default 5 s. */
  plainEveryMs?: number;
}

/** What the printer needs of a stream (process.stderr, or a fake in tests). */
export type ProgressStream = Pick<NodeJS.WriteStream, 'write'> & { isTTY?: boolean; columns?: number };

export interface ProgressPrinter {
  /** Shows `p`; a plain line only when `plainEveryMs` passed since the last one, or when forced. */
  update(p: ProgressLine, opts?: { force?: boolean }): void;
  /** Erases the rewritten line (before other output takes the terminal); the next update draws it again. */
  clear(): void;
  /** Ends the rewritten line so what follows starts on a new one. */
  done(): void;
}

export function progressPrinter(out: ProgressStream = process.stderr, quiet = false, opts: ProgressOptions = {}): ProgressPrinter {
  const tty = out.isTTY === true;
  const plainEveryMs = opts.plainEveryMs ?? 5000;
  let lastPlain = -Infinity;
  let wrote = false;
  return {
    update(p, { force = false } = {}): void {
      if (quiet) return;
      const head = `${(p.elapsedMs / 1000).toFixed(0)}s${p.totalMs ? `/${(p.totalMs / 1000).toFixed(0)}s` : ''}`;
      const line = `${head}  ${p.text}`;
      if (tty) {
        // A line wider than the terminal would wrap, and rewriting would then erase only its last row.
        const width = out.columns && out.columns > 1 ? out.columns - 1 : Infinity;
        out.write(`\r\x1b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
        wrote = true;
      } else if (force || p.elapsedMs - lastPlain >= plainEveryMs) {
        out.write(`${line}\n`);
        lastPlain = p.elapsedMs;
      }
    },
    clear(): void {
      if (tty && wrote) out.write('\r\x1b[2K');
      wrote = false;
    },
    done(): void {
      if (tty && wrote) out.write('\n');
      wrote = false;
    },
  };
}
