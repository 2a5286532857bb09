import { FormattedMessage, useIntl } from 'react-intl';
import type { ChatMessage } from '../../shared/domain.js';
import { Icon } from '../components/icon.js';
import { displayName } from '../i18n/format.js';
import { timerDuration } from '../conversation/timer-duration.js';

/** A timer notice in the message list: who set the timer to what. */
export function TimerNotice({ m }: { m: ChatMessage }) {
  const intl = useIntl();
  const who = m.fromMe ? 'you' : 'other';
  const name = <bdi dir="ltr">{displayName(m.fromHandle, m.from)}</bdi>;
  const seconds = m.timerSeconds ?? 0;
  return (
    <div className="timer-notice" role="note">
      <Icon name="timer" size={14} />
      <span>
        {seconds === 0 ? (
          <FormattedMessage
            id="timer.notice.off"
            defaultMessage="{who, select, you {You turned disappearing messages off} other {{name} turned disappearing messages off}}"
            description="Notice in the message list; {who} is “you” when the reader did it, else {name} is who did (handle or short address)"
            values={{ who, name }}
          />
        ) : (
          <FormattedMessage
            id="timer.notice.set"
            defaultMessage="{who, select, you {You set messages to disappear after {duration}} other {{name} set messages to disappear after {duration}}}"
            description="Notice in the message list; {who} is “you” when the reader did it, else {name} is who did (handle or short address); {duration} is e.g. “5 minutes”, “1 week”"
            values={{ who, name, duration: timerDuration(intl, seconds) }}
          />
        )}
      </span>
    </div>
  );
}
