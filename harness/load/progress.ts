// Progress of a load run: on a terminal one line rewritten in place every second; otherwise a
// plain line every 5 seconds (CI logs), so a run is never silent for long.

export interface ProgressLine {
  elapsedMs: number;
  totalMs?: number;
  text: string;
}

export function progressPrinter(out: NodeJS.WriteStream = process.stderr, quiet = false) {
  const tty = out.isTTY === true;
  let lastPlain = -Infinity;
  let wrote = false;
  return {
    update(p: ProgressLine): void {
      if (quiet) return;
      const head = `${(p.elapsedMs / 1000).toFixed(0)}s${p.totalMs ? `/${(p.totalMs / 1000).toFixed(0)}s` : ''}`;
      const line = `${head}  ${p.text}`;
      if (tty) {
        out.write(`\r\x1b[2K${line}`);
        wrote = true;
      } else if (p.elapsedMs - lastPlain >= 5000) {
        out.write(`${line}\n`);
        lastPlain = p.elapsedMs;
      }
    },
    /** Ends the rewritten line so what follows starts on a new one. */
    done(): void {
      if (tty && wrote) out.write('\n');
      wrote = false;
    },
  };
}
