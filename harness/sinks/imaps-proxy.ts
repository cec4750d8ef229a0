// IMAPS for the IMAP sink: a TLS listener with the sink's self-signed certificate in front of
// Dovecot's plain port. Dovecot itself stays plain (no STARTTLS on the plain port, so clients
// that do not ask for TLS keep working); targets that want implicit TLS, and checks of
// imapAllowInvalidCert, use this port.
import net from 'node:net';
import tls from 'node:tls';
import { sinkCertificate } from './cert.ts';

export interface ImapsProxy {
  port: number;
  close(): Promise<void>;
}

export async function startImapsProxy(host: string, plainPort: number): Promise<ImapsProxy> {
  const pem = await sinkCertificate();
  const sockets = new Set<net.Socket>();
  const server = tls.createServer({ key: pem.key, cert: pem.cert }, (client) => {
    const upstream = net.connect({ host, port: plainPort });
    sockets.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', () => sockets.delete(client) && end());
    upstream.on('error', end).on('close', () => sockets.delete(upstream) && end());
    client.pipe(upstream).pipe(client);
  });
  server.on('tlsClientError', () => undefined); // a client refusing our certificate is not our error
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
