// What a load's files are written to and read from: a directory or a bucket (store.ts, s3-store.ts).
// Names inside are relative paths ("run/shard-2-of-4/load.json"); a store only puts and gets whole files.

export interface ResultStore {
  /** "DIR" or "s3://bucket/prefix", for messages (never a credential) */
  readonly where: string;
  put(name: string, body: string | Buffer): Promise<void>;
  /** the file's text, or undefined when it is not there */
  get(name: string): Promise<string | undefined>;
  remove(name: string): Promise<void>;
  /** where a name is, for the user to open */
  locate(name: string): string;
}
