// The error a cancelled operation rejects with, named like fetch()'s, so a
// caller tells a cancel from a failure by err.name === 'AbortError'.

/** @returns {Error} the error a cancelled operation rejects with */
export function abortError() {
  const err = new Error('cancelled');
  err.name = 'AbortError';
  return err;
}
