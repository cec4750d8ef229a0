import { main } from './main.ts';

// The CLI called in this process, for tests that ask it many cheap questions (help, refusals):
// its exit code and what it wrote, stdout and stderr together.

/** A flag no command takes: the parser's refusal names the flags the command does take. */
export const NOT_A_FLAG = '--no-such-flag-here';

export async function cliInProcess(argv: string[]): Promise<{ code: number; text: string }> {
  let text = '';
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  const grab = (s: string | Uint8Array) => ((text += String(s)), true);
  process.stdout.write = grab as typeof process.stdout.write;
  process.stderr.write = grab as typeof process.stderr.write;
  try {
    return { code: await main(argv), text };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}
