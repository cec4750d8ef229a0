// A self-signed certificate for the sink's STARTTLS and implicit TLS, generated once per
// process at the first start (never written to disk).
import { generate } from 'selfsigned';

export interface Pem {
  key: string;
  cert: string;
}

let pending: Promise<Pem> | null = null;

export function sinkCertificate(): Promise<Pem> {
  pending ??= (async () => {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
      ],
    });
    return { key: pems.private, cert: pems.cert };
  })();
  return pending;
}
