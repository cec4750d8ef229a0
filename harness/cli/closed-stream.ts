// A reader that closes the pipe (`outreach-conformance run ... | head -3`) ends what the kit says on
// that stream, not the command: a run goes on to its end (checks, clean-up of what it created,
// reports, bundle) and exits with its verdict's code. Without this, the EPIPE either killed the
// process mid-way (an unhandled 'error') or ended it with exit 0 whatever the verdict.

type Done = (error?: Error | null) => void;

/**
 * From the first EPIPE on, `stream` drops what it is given: the write reports success (its
 * callback runs, it returns true, so a writer waiting for 'drain' never hangs). Any other error
 * of the stream is still thrown, as before.
 */
export function dropWritesOnceClosed(stream: NodeJS.WritableStream & { destroyed?: boolean }): void {
  let closed = false;
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    closed = true;
  });
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  // The failed write destroys the stream at once; its 'error' comes a tick later.
  stream.write = ((chunk: unknown, encoding?: unknown, cb?: unknown): boolean => {
    if (!closed && !stream.destroyed) return write(chunk, encoding, cb);
    const done = (typeof encoding === 'function' ? encoding : cb) as Done | undefined;
    if (done) process.nextTick(done);
    return true;
  }) as typeof stream.write;
}
