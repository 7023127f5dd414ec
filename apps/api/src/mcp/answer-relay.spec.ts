import { randomUUID } from 'node:crypto';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { loadConfig } from '../config/app-config';
import { loadClusterConfig } from '../config/cluster-config';
import { ClusterRedis } from '../redis/cluster-redis';
import { AnswerRelay } from './answer-relay';

const REDIS_URL = 'redis://127.0.0.1:6379';

/** One api process's copy of an MCP session: the SDK's server, the relay on its transport, and the client's end. */
interface ProcessCopy {
  server: Server;
  client: InMemoryTransport;
  /** the requests this copy sent to the client, as the client saw them */
  asked: JSONRPCMessage[];
  cluster: ClusterRedis;
  relay: AnswerRelay;
}

describe('AnswerRelay: a client’s answer reaches the process that asked, across processes', () => {
  const env = { REDIS_URL, REDIS_PREFIX: `relay-${randomUUID()}` };
  const copies: ProcessCopy[] = [];

  async function processCopy(sessionId: string): Promise<ProcessCopy> {
    const cluster = new ClusterRedis(loadConfig(env), loadClusterConfig(env));
    const relay = new AnswerRelay(cluster);
    const [client, serverSide] = InMemoryTransport.createLinkedPair();
    serverSide.sessionId = sessionId;
    const server = new Server({ name: 'api', version: '1.0.0' }, { capabilities: {} });
    await server.connect(serverSide);
    relay.attach(serverSide);
    const asked: JSONRPCMessage[] = [];
    client.onmessage = (message) => asked.push(message);
    await client.start();
    const copy = { server, client, asked, cluster, relay };
    copies.push(copy);
    return copy;
  }

  afterAll(async () => {
    for (const copy of copies) {
      await copy.server.close();
      await copy.relay.onApplicationShutdown();
      await copy.cluster.onApplicationShutdown();
    }
  });

  const until = async (done: () => boolean): Promise<void> => {
    while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  it('two processes asking in one session each get their own answer, wherever it lands', async () => {
    const a = await processCopy('session-1');
    const b = await processCopy('session-1');
    // Each copy's SDK numbers its requests from 0: the same id, had the relay not told them apart.
    const settled: string[] = [];
    const pingA = a.server.ping().then(() => settled.push('a'));
    const pingB = b.server.ping().then(() => settled.push('b'));
    await until(() => a.asked.length === 1 && b.asked.length === 1);
    const [askedA] = a.asked;
    const [askedB] = b.asked;
    if (!askedA || !isJSONRPCRequest(askedA) || !askedB || !isJSONRPCRequest(askedB))
      throw new Error('each process should have asked once');
    expect(askedA.id).not.toEqual(askedB.id);

    // The load balancer sends the answer to b's question to a.
    await a.client.send({ jsonrpc: '2.0', id: askedB.id, result: {} });
    await pingB;
    expect(settled).toEqual(['b']);

    // a's own question still waits for its answer, and takes it when it comes.
    await a.client.send({ jsonrpc: '2.0', id: askedA.id, result: {} });
    await pingA;
    expect(settled).toEqual(['b', 'a']);
  });
});
