import { createServer } from 'node:net';

/** Asks the OS for a free loopback port (CI runs several jobs per host, so 3000 may be taken). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
