// The worker protocol itself (protocol.js, serve.js, proxy.js) over an
// in-process MessageChannel with the real WASM engine: one reply per request,
// errors as {name, message}, progress routed to its request, cancel, explicit
// transfer lists, and never a view of the WASM heap in a posted message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { MessageChannel } from 'node:worker_threads';
import { serveEngine } from '../../src/engine/serve.js';
import { WorkerProxy } from '../../src/engine/proxy.js';
import { Req, transferablesOf } from '../../src/engine/protocol.js';
import { loadWasmModule } from '../../src/engine/wasm-module.js';
import { nodeWasmSource } from '../../src/engine/node.js';

const LOG = new URL('../../../tests/fixtures/fio-s1/s1_clat_hist.1.log.127.0.0.1', import.meta.url);

/**
 * A worker side and a proxy joined by a MessageChannel; every message the
 * worker side posts is recorded with its transfer list.
 */
async function pair() {
  const { port1, port2 } = new MessageChannel();
  /** @type {{msg: any, transfer: any[]}[]} */
  const posted = [];
  /** @type {any} */
  let module = null;
  serveEngine(
    {
      postMessage: (msg, transfer = []) => {
        posted.push({ msg, transfer });
        port1.postMessage(msg, /** @type {any} */ (transfer));
      },
      addEventListener: (_t, fn) => port1.on('message', (data) => fn({ data })),
    },
    async () => {
      module = await loadWasmModule(nodeWasmSource());
      return module;
    },
  );
  /** @type {number[]} */
  const replies = [];
  const proxy = new WorkerProxy({
    postMessage: (m, t) => port2.postMessage(m, /** @type {any} */ (t)),
    addEventListener: (type, fn) => {
      if (type === 'message')
        port2.on('message', (data) => {
          if (data && 'ok' in data) replies.push(data.id);
          fn({ data });
        });
    },
    terminate: () => {
      port1.close();
      port2.close();
    },
  });
  await proxy.request(Req.INIT, { wasmUrl: 'unused' });
  return { proxy, posted, replies, heap: () => module.HEAPU8.buffer };
}

/** Every ArrayBuffer reachable from a posted message. */
function buffersIn(/** @type {any} */ v, out = new Set(), seen = new Set()) {
  if (!v || typeof v !== 'object' || seen.has(v)) return out;
  seen.add(v);
  if (ArrayBuffer.isView(v)) out.add(v.buffer);
  else if (v instanceof ArrayBuffer) out.add(v);
  else for (const x of Object.values(v)) buffersIn(x, out, seen);
  return out;
}

describe('worker protocol', () => {
  /** @type {Awaited<ReturnType<typeof pair>>} */
  let p;
  beforeAll(async () => {
    p = await pair();
  });
  afterAll(() => p?.proxy.terminate());

  it('answers each request exactly once, errors as {name, message}', async () => {
    const before = p.replies.length;
    const bad = await p.proxy.request(/** @type {import('../../src/engine/protocol.js').RequestName} */ (/** @type {unknown} */ ('noSuchRequest')), {}).catch((e) => e);
    expect(bad.name).toBe('TypeError');
    expect(bad.message).toMatch(/unknown request type "noSuchRequest"/);
    const opt = await p.proxy.request(Req.QUERY, { opts: { quantum_ms: 0 } }).catch((e) => e);
    expect(opt.name).toBe('EngineError');
    expect(await p.proxy.request(Req.SOURCES, {})).toEqual([]);
    expect(p.replies.length - before).toBe(3);
    expect(new Set(p.replies).size).toBe(p.replies.length);
  });

  it('routes progress to its request and transfers exported bytes', async () => {
    const file = new Blob([fs.readFileSync(LOG)]);
    /** @type {any[]} */
    const prog = [];
    const r = await p.proxy.request(
      Req.PARSE_FILE,
      { file, name: 'a.log', export: true, sliceBytes: 32 * 1024 },
      { onProgress: (x) => prog.push(x) },
    );
    expect(r.source.status.ok).toBe(true);
    expect(r.bytes).toBeInstanceOf(Uint8Array);
    expect(prog.length).toBeGreaterThan(1);
    expect(prog.at(-1)).toMatchObject({ file: 'a.log', state: 'done', bytesDone: file.size });
    const reply = p.posted.find((x) => x.msg.ok && x.msg.result?.bytes);
    expect(reply?.transfer).toEqual([reply?.msg.result.bytes.buffer]);
    const bytes = /** @type {Uint8Array} */ (r.bytes);
    const src = /** @type {import('../../src/engine/inthread.js').Source} */ (await p.proxy.request(Req.IMPORT_SOURCE, { bytes }, { transfer: [bytes.buffer] }));
    expect(bytes.byteLength).toBe(0); // transferred, not copied
    expect(src.name).toBe('a.log');
  });

  it('heat-map counts are a transferred copy, never a view of the WASM heap', async () => {
    const h = await p.proxy.request(Req.HEATMAP, { opts: { rows: 16 } });
    expect(h.counts).toBeInstanceOf(Float64Array);
    expect(h.counts.length).toBe(h.quanta * 16);
    const reply = p.posted.find((x) => x.msg.ok && x.msg.result?.counts);
    expect(reply?.transfer).toEqual([reply?.msg.result.counts.buffer]);
    for (const { msg, transfer } of p.posted) {
      expect(buffersIn(msg).has(p.heap())).toBe(false);
      expect(transfer.includes(p.heap())).toBe(false);
    }
  });

  it('cancel makes the running request reply AbortError', async () => {
    const big = new Blob(Array(40).fill(fs.readFileSync(LOG)));
    const ctl = new AbortController();
    const run = p.proxy.request(
      Req.PARSE_FILE,
      { file: big, name: 'big.log', export: true, sliceBytes: 16 * 1024 },
      { signal: ctl.signal, onProgress: () => ctl.abort() },
    );
    const err = await run.catch((e) => e);
    expect(err.name).toBe('AbortError');
    // The worker is still fine.
    expect((await p.proxy.request(Req.SOURCES, {})).map((/** @type {any} */ s) => s.name)).toEqual(['a.log']);
  });

  it('transferablesOf takes only whole, owned buffers', () => {
    const own = new Float64Array(4);
    const shared = new Uint8Array(new ArrayBuffer(64), 8, 8);
    expect(transferablesOf({ own, shared, n: 3, s: 'x' })).toEqual([own.buffer]);
    expect(transferablesOf(null)).toEqual([]);
  });
});
