// Plain JavaScript (typed by redis-server.d.mts) so the built apps (apps/bench, apps/examples' cluster demo)
// can import it too: the rest of the test kit is TypeScript source that only vitest loads.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where `startRedis` looks for the binary: `REDIS_SERVER`, else the Debian path, else `PATH`. */
function redisBinary() {
  const fromEnv = process.env['REDIS_SERVER'];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  return existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : 'redis-server';
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port for redis-server');
  return address.port;
}

/** Spawns redis-server and resolves once it accepts connections; rejects with its output otherwise. */
function launch(binary, port, extraArgs = []) {
  return spawnUntil(
    binary,
    [
      ...extraArgs,
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--protected-mode',
      'no',
    ],
    'Ready to accept connections',
  );
}

/** Spawns `binary args` and resolves once its output holds `ready`; rejects with its output otherwise. */
function spawnUntil(binary, args, ready) {
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk) => {
      output += chunk.toString('utf8');
      if (output.includes(ready)) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        child.stderr?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk) => {
      output += chunk.toString('utf8');
    });
    child.once('error', (error) => {
      const hint =
        error.code === 'ENOENT'
          ? ` — redis-server is not installed (apt-get install -y redis-server; .ci/run installs it), or set REDIS_SERVER`
          : '';
      reject(new Error(`Cannot start ${binary}: ${error.message}${hint}`));
    });
    child.once('exit', (code, signal) => {
      reject(
        new Error(
          `${binary} ${args.join(' ')} exited before it was ready (code ${code}, signal ${signal}):\n${output}`,
        ),
      );
    });
  });
}

function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function redisCli(port, args) {
  const cli = existsSync('/usr/bin/redis-cli') ? '/usr/bin/redis-cli' : 'redis-cli';
  return new Promise((resolve, reject) => {
    execFile(cli, ['-h', '127.0.0.1', '-p', String(port), ...args], (error, stdout) =>
      error === null ? resolve(stdout) : reject(error),
    );
  });
}

/** Gives a lone cluster-mode node every slot and waits until it reports `cluster_state:ok`. */
async function claimAllSlots(port) {
  await redisCli(port, ['CLUSTER', 'ADDSLOTSRANGE', '0', '16383']);
  const deadline = Date.now() + 20_000;
  while (!(await redisCli(port, ['CLUSTER', 'INFO'])).includes('cluster_state:ok')) {
    if (Date.now() > deadline) throw new Error(`redis-server on ${port}: cluster_state never became ok`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Starts a real `redis-server` on a free port of 127.0.0.1 with persistence off (`--save ''
 * --appendonly no`). A missing binary fails loudly (never a skip): the Redis tests must run. Use with
 * `await using`, or call `stop()` in an `afterAll`.
 *
 * @example
 * await using redis = await startRedis();
 * const client = createClient({ url: redis.url });
 */
export async function startRedis(options = {}) {
  const binary = redisBinary();
  const port = await freePort();
  const cluster = options.cluster === true;
  // Cluster mode writes its node table to a file: one directory per server, removed by stop().
  const dir = cluster ? mkdtempSync(join(tmpdir(), 'x-redis-cluster-')) : undefined;
  const args =
    dir === undefined
      ? []
      : ['--cluster-enabled', 'yes', '--cluster-config-file', join(dir, 'nodes.conf'), '--dir', dir];
  const start = async () => {
    const started = await launch(binary, port, args);
    if (cluster) await claimAllSlots(port);
    return started;
  };
  let child = await start();
  const halt = async () => {
    const running = child;
    child = undefined;
    // A frozen (paused) server ignores SIGTERM: thaw it first, so stop() never waits for the SIGKILL.
    running?.kill('SIGCONT');
    if (running !== undefined) await stopChild(running);
  };
  const stop = async () => {
    await halt();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  };
  const restart = async () => {
    await halt();
    if (dir !== undefined) rmSync(join(dir, 'nodes.conf'), { force: true });
    child = await start();
  };
  // SIGSTOP freezes the server with its sockets open: clients connect and write, nothing answers.
  const signal = (name) => {
    if (child === undefined && name === 'SIGSTOP') throw new Error('redis-server is not running');
    child?.kill(name);
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    restart,
    pause: () => signal('SIGSTOP'),
    resume: () => signal('SIGCONT'),
    [Symbol.asyncDispose]: stop,
  };
}

/**
 * Starts a real Redis Cluster on 127.0.0.1: `primaries × (1 + replicasPerPrimary)` `redis-server
 * --cluster-enabled yes` on free ports (bus ports chosen free too, `--cluster-port`), joined by
 * `redis-cli --cluster create --cluster-replicas <n> --cluster-yes`; resolves once every node reports
 * `cluster_state:ok`. `--cluster-node-timeout` is short (default 2 s) so a failover takes seconds, and
 * `--cluster-replica-validity-factor 0` lets a replica take over however stale its link looked.
 *
 * @example
 * await using cluster = await startRedisCluster();
 * const client = await createCluster({ rootNodes: cluster.rootNodes }).connect();
 */
export async function startRedisCluster(options = {}) {
  const primaries = options.primaries ?? 3;
  const replicasPerPrimary = options.replicasPerPrimary ?? 1;
  const nodeTimeoutMs = options.nodeTimeoutMs ?? 2_000;
  const binary = redisBinary();
  const count = primaries * (1 + replicasPerPrimary);
  const dir = mkdtempSync(join(tmpdir(), 'x-redis-cluster-'));
  const nodes = [];
  const stop = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Ports one at a time: two free-port probes in parallel could be handed the same port.
    const ports = [];
    for (let i = 0; i < count; i++) ports.push([await freePort(), await freePort()]);
    const started = await Promise.all(
      ports.map(async ([port, busPort]) => {
        const args = [
          '--cluster-enabled',
          'yes',
          '--cluster-port',
          String(busPort),
          '--cluster-config-file',
          join(dir, `nodes-${port}.conf`),
          '--cluster-node-timeout',
          String(nodeTimeoutMs),
          // A replica whose link to its primary was slow (a busy CI box) must still take over when the
          // primary dies: with the default factor it may judge its data too old and never fail over.
          '--cluster-replica-validity-factor',
          '0',
          '--dir',
          dir,
        ];
        return { port, child: await launch(binary, port, args) };
      }),
    );
    for (const { port, child } of started) {
      let running = child;
      nodes.push({
        host: '127.0.0.1',
        port,
        url: `redis://127.0.0.1:${port}`,
        stop: async () => {
          const current = running;
          running = undefined;
          current?.kill('SIGCONT');
          if (current !== undefined) await stopChild(current);
        },
        kill: () => running?.kill('SIGKILL'),
      });
    }
    await redisCli(ports[0][0], [
      '--cluster',
      'create',
      ...ports.map(([port]) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      String(replicasPerPrimary),
      '--cluster-yes',
    ]);
    const deadline = Date.now() + 30_000;
    // Every node must see the whole cluster: slots served, and each replica attached to its primary.
    const ready = async (port) =>
      (await redisCli(port, ['CLUSTER', 'INFO'])).includes('cluster_state:ok') &&
      (await redisCli(port, ['CLUSTER', 'NODES'])).split('\n').filter((line) => line.includes('slave'))
        .length ===
        primaries * replicasPerPrimary;
    for (const [port] of ports) {
      while (!(await ready(port))) {
        if (Date.now() > deadline)
          throw new Error(`redis cluster node ${port}: cluster_state never became ok`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    nodes,
    rootNodes: nodes.map((node) => ({ url: node.url })),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

/** Polls `check` every 50 ms until it is true; throws `what` after `timeoutMs`. */
async function until(check, what, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const done = await check().catch(() => false);
    if (done) return;
    if (Date.now() > deadline) throw new Error(`redis sentinel set: ${what} never happened`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Starts a real Sentinel set on 127.0.0.1: one primary, `replicas` replicas (`--replicaof`), and
 * `sentinels` sentinels (`redis-server <conf> --sentinel`, no redis-sentinel package needed) watching
 * it as `name` with quorum `⌊sentinels/2⌋+1` and a short `down-after-milliseconds` (1 s by default) so
 * a failover takes seconds. Resolves once every replica is in sync and every sentinel knows the
 * replicas and the other sentinels. A missing binary fails loudly.
 *
 * @example
 * await using set = await startRedisSentinel();
 * const client = await createSentinel({ name: set.name, sentinelRootNodes: set.sentinelRootNodes }).connect();
 */
export async function startRedisSentinel(options = {}) {
  const name = options.name ?? 'mymaster';
  const replicaCount = options.replicas ?? 1;
  const sentinelCount = options.sentinels ?? 3;
  const downAfterMs = options.downAfterMs ?? 1_000;
  const binary = redisBinary();
  const dir = mkdtempSync(join(tmpdir(), 'x-redis-sentinel-'));
  const servers = [];
  const sentinels = [];
  const handleOf = (port, child, kind) => {
    let running = child;
    return {
      host: '127.0.0.1',
      port,
      url: `redis://127.0.0.1:${port}`,
      kind,
      stop: async () => {
        const current = running;
        running = undefined;
        current?.kill('SIGCONT');
        if (current !== undefined) await stopChild(current);
      },
      kill: () => running?.kill('SIGKILL'),
    };
  };
  const stop = async () => {
    await Promise.all([...sentinels, ...servers].map((node) => node.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const ports = [];
    for (let i = 0; i < 1 + replicaCount + sentinelCount; i++) ports.push(await freePort());
    const [primaryPort, ...rest] = ports;
    const replicaPorts = rest.slice(0, replicaCount);
    const sentinelPorts = rest.slice(replicaCount);
    servers.push(handleOf(primaryPort, await launch(binary, primaryPort, ['--dir', dir]), 'server'));
    for (const port of replicaPorts) {
      const child = await launch(binary, port, [
        '--dir',
        dir,
        '--replicaof',
        '127.0.0.1',
        String(primaryPort),
      ]);
      servers.push(handleOf(port, child, 'server'));
    }
    for (const port of replicaPorts)
      await until(
        async () => (await redisCli(port, ['INFO', 'replication'])).includes('master_link_status:up'),
        `replica ${port} in sync`,
      );
    const quorum = Math.floor(sentinelCount / 2) + 1;
    for (const port of sentinelPorts) {
      const conf = join(dir, `sentinel-${port}.conf`);
      writeFileSync(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          'protected-mode no',
          `dir ${dir}`,
          `sentinel monitor ${name} 127.0.0.1 ${primaryPort} ${quorum}`,
          `sentinel down-after-milliseconds ${name} ${downAfterMs}`,
          `sentinel failover-timeout ${name} ${Math.max(5_000, downAfterMs * 5)}`,
          `sentinel parallel-syncs ${name} 1`,
          '',
        ].join('\n'),
      );
      const child = await spawnUntil(binary, [conf, '--sentinel'], '+monitor master');
      sentinels.push(handleOf(port, child, 'sentinel'));
    }
    for (const port of sentinelPorts) {
      await until(
        async () => {
          const master = await redisCli(port, ['SENTINEL', 'MASTER', name]);
          const lines = master.split('\n').map((line) => line.trim());
          const field = (key) => lines[lines.indexOf(key) + 1];
          return (
            Number(field('num-slaves')) === replicaCount &&
            Number(field('num-other-sentinels')) === sentinelCount - 1
          );
        },
        `sentinel ${port} to see ${replicaCount} replica(s) and ${sentinelCount - 1} other sentinel(s)`,
      );
    }
  } catch (error) {
    await stop();
    throw error;
  }
  /** The port of the primary the sentinels name now (it changes after a failover). */
  const primaryPort = async () => {
    for (const sentinel of sentinels) {
      const reply = await redisCli(sentinel.port, ['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name]).catch(
        () => undefined,
      );
      const port = Number(reply?.split('\n')[1]);
      if (Number.isInteger(port) && port > 0) return port;
    }
    throw new Error('no sentinel answered');
  };
  return {
    name,
    servers,
    sentinels,
    sentinelRootNodes: sentinels.map((node) => ({ host: node.host, port: node.port })),
    primaryPort,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
