// The kit's own failure: it could not run (a bad profile, flag or baseline; an unreachable
// target). The CLI exits with code 2 and this message, naming what to fix.
export class KitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KitError';
  }
}
