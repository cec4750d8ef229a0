// snappyjs ships no types: the one function the remote-write output calls.
declare module 'snappyjs' {
  /** Snappy block compression (what remote write's Content-Encoding: snappy means); returns the input's type. */
  export function compress<T extends Uint8Array | ArrayBuffer>(input: T): T;
}
