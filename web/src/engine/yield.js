// Yielding to the event loop between slices of long work, so input and
// paint get in: a message to itself rather than setTimeout(0), which
// browsers hold back 4 ms each time once timeouts nest.

/** Resolves after the event loop has run once (a macrotask, not clamped like setTimeout). */
export function yieldToEvents() {
  if (typeof MessageChannel === 'undefined') return new Promise((r) => setTimeout(r, 0));
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve(undefined);
    };
    ch.port2.postMessage(null);
  });
}
