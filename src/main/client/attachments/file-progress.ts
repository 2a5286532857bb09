/** Upload and download progress thinned to whole percents for the app. */
import type { Progress } from '../network/relay-api.js';

/**
 * A transfer's progress as the app shows it: the relay API reports every chunk (hundreds for a
 * large file), the app needs a bar to move, so only each whole percent (and the end) passes.
 */
export function byPercent(fn: Progress): Progress {
  let last = -1;
  return (done, total) => {
    const percent = total > 0 ? Math.floor((done * 100) / total) : 100;
    if (percent === last) return;
    last = percent;
    fn(done, total);
  };
}
