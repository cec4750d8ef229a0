import { describe, expect, it } from 'vitest';
import { CheckFailure, CheckSkipped, fail, skip } from '../../harness/ground/check.ts';
import { holdEach } from './claims.ts';

describe('holdEach (a composite probe)', () => {
  it('passes when every claim holds', async () => {
    await expect(holdEach([{ clause: 'A', holds: () => {} }, { clause: 'B', holds: async () => {} }])).resolves.toBeUndefined();
  });

  it('judges every claim and names each broken clause with what broke it, evidence kept', async () => {
    const err = await holdEach([
      { clause: 'ACCT-BCC-BEHAVIOUR', holds: () => fail('no blind copy', 'ex-1') },
      { clause: 'ACCT-REPLYTO-BEHAVIOUR', holds: () => {} },
      { clause: 'ACCT-DISPLAYNAME-SENDER', holds: async () => fail('From lacks the name', 'ex-2') },
    ]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CheckFailure);
    expect((err as CheckFailure).message).toBe('2 of 3 claims broken: ACCT-BCC-BEHAVIOUR: no blind copy | ACCT-DISPLAYNAME-SENDER: From lacks the name');
    expect((err as CheckFailure).evidence).toEqual(['ex-1', 'ex-2']);
  });

  it('lets a skip or an error through: only failures are claims broken', async () => {
    await expect(holdEach([{ clause: 'A', holds: () => skip('not declared') }])).rejects.toBeInstanceOf(CheckSkipped);
    await expect(holdEach([{ clause: 'A', holds: () => { throw new TypeError('bug'); } }])).rejects.toBeInstanceOf(TypeError);
  });
});
