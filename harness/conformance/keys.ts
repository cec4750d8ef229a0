// The Ed25519 keys of signed bundles: `run --sign FILE|env:VAR` (the private key, from a file or,
// for CI secrets, from an environment variable holding the PEM text, as profiles take `{ env }`
// secrets) and `verify --key FILE` (the public key). A bad key is refused before anything runs,
// naming where it came from; the key's text never appears in a message.
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { KitError } from '../ground/errors.ts';

const HOW = 'openssl genpkey -algorithm ed25519 -out signing.pem';

/** The PEM text of `ref`: a file path, or `env:NAME` for the variable's value. */
async function pemText(flag: string, ref: string, env: NodeJS.ProcessEnv): Promise<string> {
  if (ref.startsWith('env:')) {
    const name = ref.slice(4);
    if (!/^[A-Za-z_]\w*$/.test(name)) throw new KitError(`${flag} ${ref}: "${name}" is not an environment variable name`);
    const value = env[name];
    if (!value) throw new KitError(`${flag} ${ref}: environment variable ${name} is not set`);
    return value;
  }
  try {
    return await readFile(resolve(ref), 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new KitError(`${flag} ${ref}: ${code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? 'error'})`}`);
  }
}

function ed25519(flag: string, ref: string, key: KeyObject): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519') throw new KitError(`${flag} ${ref}: its key type is ${key.asymmetricKeyType ?? 'unknown'}; the kit signs with Ed25519 (${HOW})`);
  return key;
}

/** `run --sign`: an unencrypted Ed25519 private key in PEM (PKCS#8). */
export async function signingKey(ref: string, env: NodeJS.ProcessEnv = process.env): Promise<KeyObject> {
  const text = await pemText('--sign', ref, env);
  if (/-----BEGIN [A-Z ]*ENCRYPTED[A-Z ]* KEY-----/.test(text)) throw new KitError(`--sign ${ref}: is an encrypted key; the kit needs it unencrypted (PKCS#8 PEM, as ${HOW} writes it)`);
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) throw new KitError(`--sign ${ref}: is not a PEM private key (expected "-----BEGIN PRIVATE KEY-----", as ${HOW} writes it)`);
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: text, format: 'pem' });
  } catch {
    throw new KitError(`--sign ${ref}: its PEM private key cannot be read (damaged, or not PKCS#8)`);
  }
  return ed25519('--sign', ref, key);
}

/** `verify --key`: an Ed25519 public key in PEM (`openssl pkey -in signing.pem -pubout`). */
export async function verifyingKey(ref: string, env: NodeJS.ProcessEnv = process.env): Promise<KeyObject> {
  const text = await pemText('--key', ref, env);
  if (/PRIVATE KEY-----/.test(text)) throw new KitError(`--key ${ref}: is a private key; verify takes the public key (openssl pkey -in ${ref} -pubout -out signing.pub), and the private key stays with the signer`);
  let key: KeyObject;
  try {
    key = createPublicKey({ key: text, format: 'pem' });
  } catch {
    throw new KitError(`--key ${ref}: is not a PEM public key (expected "-----BEGIN PUBLIC KEY-----")`);
  }
  return ed25519('--key', ref, key);
}
