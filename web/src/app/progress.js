import { formatDecimalBytes, formatMinSec } from '../util/format.js';
// Progress line text: "12.0 of 48.0 MB · 95.3 MB/s · 3 of 8 files · ~0:01 left".

/**
 * @param {number} done bytes @param {number} total bytes @param {number} secs elapsed
 * @param {number} filesDone @param {number} files
 */
export function progressText(done, total, secs, filesDone, files) {
  const rate = secs > 0 ? done / secs : 0;
  const parts = [`${formatDecimalBytes(done)} of ${formatDecimalBytes(total)}`];
  if (rate > 0) parts.push(`${formatDecimalBytes(rate)}/s`);
  parts.push(`${filesDone} of ${files} files`);
  if (rate > 0 && done < total && secs > 0.5) {
    const left = Math.ceil((total - done) / rate);
    parts.push(`~${formatMinSec(left)} left`);
  }
  return parts.join(' · ');
}
