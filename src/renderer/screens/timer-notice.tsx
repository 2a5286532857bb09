import type { ChatMessage } from '../../shared/domain.js';
import { timerLabel } from '../../shared/disappearing.js';
import { Icon } from '../components/icon.js';
import { displayName } from '../format.js';

/** A timer notice in the message list: who set the timer to what. */
export function TimerNotice({ m }: { m: ChatMessage }) {
  const who = m.fromMe ? 'You' : displayName(m.fromHandle, m.from);
  const what = m.timerSeconds === 0 ? 'turned disappearing messages off' : `set messages to disappear after ${timerLabel(m.timerSeconds ?? 0).toLowerCase()}`;
  return (
    <div className="timer-notice" role="note">
      <Icon name="timer" size={14} />
      <span>
        {who} {what}
      </span>
    </div>
  );
}
