import { describe, expect, it } from 'vitest';
import { dummyHash, hashPassword, verifyPassword } from './password-hash.ts';
import { passwordProblem } from './user-store.ts';

describe('password hashing', () => {
  it('stores scrypt with its parameters and a fresh salt, and verifies', async () => {
    const a = await hashPassword('correct horse 42 battery');
    const b = await hashPassword('correct horse 42 battery');
    expect(a).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse 42 battery', a)).toBe(true);
    expect(await verifyPassword('correct horse 42 batterY', a)).toBe(false);
  });

  it('verifies with the parameters stored in the hash', async () => {
    const cheap = await hashPassword('s3cret password', { ln: 10, r: 8, p: 1 });
    expect(cheap.startsWith('$scrypt$ln=10,r=8,p=1$')).toBe(true);
    expect(await verifyPassword('s3cret password', cheap)).toBe(true);
  });

  it('never matches a malformed or absurd hash', async () => {
    expect(await verifyPassword('x', 'plain text')).toBe(false);
    expect(await verifyPassword('x', '$scrypt$ln=40,r=8,p=1$AAAA$AAAA')).toBe(false);
    expect(await verifyPassword('anything', await dummyHash())).toBe(false);
  });

  it('asks for 12 characters with letters and digits (PCI-836-1)', () => {
    expect(passwordProblem('short1')?.message).toMatch(/at least 12/);
    expect(passwordProblem('onlyletterslong')?.message).toMatch(/letters and digits/);
    expect(passwordProblem('123456789012345')?.message).toMatch(/letters and digits/);
    expect(passwordProblem('twelve chars 1')).toBeNull();
    expect(passwordProblem(`a1${'x'.repeat(300)}`)?.message).toMatch(/at most/);
  });
});
