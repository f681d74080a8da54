// Saving exports: a Blob through an <a download> click (no server involved).

/** @param {Blob} blob @param {string} name */
export function downloadBlob(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoke later: the download starts asynchronously.
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

/** @param {string} text @param {string} name @param {string} type */
export function downloadText(text, name, type) {
  downloadBlob(new Blob([text], { type }), name);
}
