// Progress line text: "12.0 of 48.0 MB · 95.3 MB/s · 3 of 8 files · ~0:01 left".

/** @param {number} n bytes */
export function formatBytes(n) {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} kB`;
  return `${n} B`;
}

/**
 * @param {number} done bytes @param {number} total bytes @param {number} secs elapsed
 * @param {number} filesDone @param {number} files
 */
export function progressText(done, total, secs, filesDone, files) {
  const rate = secs > 0 ? done / secs : 0;
  const parts = [`${formatBytes(done)} of ${formatBytes(total)}`];
  if (rate > 0) parts.push(`${formatBytes(rate)}/s`);
  parts.push(`${filesDone} of ${files} files`);
  if (rate > 0 && done < total && secs > 0.5) {
    const left = Math.ceil((total - done) / rate);
    parts.push(`~${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')} left`);
  }
  return parts.join(' · ');
}
