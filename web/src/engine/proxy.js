// Main-thread side of the protocol (protocol.js) for one worker: numbers the
// requests, routes progress notes and the single reply of each request back to
// its caller, turns an AbortSignal into a 'cancel' request.

import { Note, Req, deserializeError } from './protocol.js';
import { abortError } from '../util/abort.js';

/**
 * Anything that looks like a Web Worker (the Node tests adapt worker_threads).
 * @typedef {object} Endpoint
 * @property {(msg: any, transfer?: Transferable[]) => void} postMessage
 * @property {(type: string, fn: (ev: any) => void) => void} addEventListener
 * @property {() => void} terminate
 */

/**
 * @typedef {object} RequestOptions
 * @property {Transferable[]} [transfer]
 * @property {(p: import('./protocol.js').Progress) => void} [onProgress]
 * @property {AbortSignal} [signal]
 */

export class WorkerProxy {
  /** @param {Endpoint} endpoint */
  constructor(endpoint) {
    this.endpoint = endpoint;
    this.nextId = 1;
    /** @type {Map<number, {resolve: (v: any) => void, reject: (e: Error) => void, onProgress?: RequestOptions['onProgress']}>} */
    this.pending = new Map();
    /** Set when the worker died; later requests fail at once. @type {Error | null} */
    this.dead = null;
    endpoint.addEventListener('message', (ev) => this.onMessage(ev.data));
    endpoint.addEventListener('error', (ev) => {
      // A worker script that fails to load or throws at top level.
      ev?.preventDefault?.();
      this.fail(new Error(`engine worker failed: ${ev?.message ?? ev?.error?.message ?? 'unknown error'}`));
    });
    endpoint.addEventListener('messageerror', () => this.fail(new Error('engine worker sent an unreadable message')));
  }

  /** @param {any} msg */
  onMessage(msg) {
    if (!msg || typeof msg.id !== 'number') return;
    const p = this.pending.get(msg.id);
    if (!p) return;
    if (msg.type === Note.PROGRESS) {
      const { type: _t, id: _i, ...prog } = msg;
      p.onProgress?.(prog);
      return;
    }
    this.pending.delete(msg.id);
    if (msg.ok) p.resolve(msg.result);
    else p.reject(deserializeError(msg.error));
  }

  /** @param {Error} err */
  fail(err) {
    this.dead = err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  /**
   * One request of the contract (protocol.js Requests): its payload in, its
   * result out ({} for a request that takes nothing).
   * @template {import('./protocol.js').RequestName} K
   * @param {K} type
   * @param {import('./protocol.js').PayloadOf<K>} payload
   * @param {RequestOptions} [opts]
   * @returns {Promise<import('./protocol.js').ResultOf<K>>}
   */
  request(type, payload, opts = {}) {
    if (this.dead) return Promise.reject(this.dead);
    const { signal } = opts;
    if (signal?.aborted) return Promise.reject(abortError());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = () => this.endpoint.postMessage({ id: this.nextId++, type: Req.CANCEL, payload: { id } });
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      this.pending.set(id, {
        resolve: (v) => {
          done();
          resolve(v);
        },
        reject: (e) => {
          done();
          reject(e);
        },
        onProgress: opts.onProgress,
      });
      try {
        this.endpoint.postMessage({ id, type, payload }, opts.transfer ?? []);
      } catch (e) {
        this.pending.delete(id);
        done();
        reject(e);
      }
    });
  }

  terminate() {
    this.endpoint.terminate();
    this.fail(new Error('engine worker terminated'));
  }
}
