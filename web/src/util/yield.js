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

/**
 * Resolves once the page has rendered a frame (the task after it), or after
 * `maxMs` when no frame comes (a hidden tab runs no frames). Work that reads
 * layout after a large DOM change waits for it, so the browser lays the new
 * DOM out in its own frame task instead of inside the caller's (a 200-file
 * table laid out inside the load's task made it 250-300 ms long).
 * @param {number} [maxMs]
 */
export function afterNextFrame(maxMs = 100) {
  if (typeof requestAnimationFrame === 'undefined') return yieldToEvents();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, maxMs);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        resolve(undefined);
      }, 0),
    );
  });
}
