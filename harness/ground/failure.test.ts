import { describe, expect, it } from 'vitest';
import { errorCause, failureKey, messageOf, msg, naming } from './failure.ts';

describe('failures as data', () => {
  it('a rule keeps its findings apart from its key: two instances naming other findings are one cause', () => {
    const a = messageOf(naming(msg`${2} of ${9} answers break the envelope: ${'x'}`, ['error.type: bad', 'error.requestId: not a uuid', 'error.type: bad']));
    const b = messageOf(msg`${5} of ${7} answers break the envelope: ${'y'}`);
    expect(a.typed).toEqual({ kind: 'value', fields: { rule: '… of … answers break the envelope: …' }, details: ['error.requestId: not a uuid', 'error.type: bad'] });
    expect(failureKey(a.typed!)).toBe(failureKey(b.typed!));
  });

  it("a throw that is no verdict: its own cause where it carries one, else the kit's error as thrown", () => {
    const own = Object.assign(new Error('GET http://h/v1/x/123 failed'), { typed: { kind: 'transport', fields: { failure: 'ECONNRESET' } } });
    expect(errorCause(own)).toEqual({ kind: 'transport', fields: { failure: 'ECONNRESET' } });
    expect(errorCause(new TypeError('x is undefined'))).toEqual({ kind: 'kit', fields: { name: 'TypeError', message: 'x is undefined' } });
    expect(errorCause('boom')).toEqual({ kind: 'kit', fields: { name: 'thrown', message: 'boom' } });
  });
});
