import { defineMessages, useIntl } from 'react-intl';
import type { ConversationSummary } from '../../shared/domain.js';
import { TIMER_CHOICES } from '../../shared/disappearing.js';
import { Icon } from '../components/icon.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';
import { timerDuration } from './timer-duration.js';

const texts = defineMessages({
  label: {
    id: 'timer.control.label',
    defaultMessage: 'Disappearing messages',
    description: 'Accessible name and tooltip of the timer menu in the conversation header',
  },
  off: {
    id: 'timer.control.off',
    defaultMessage: 'Off',
    description: 'Choice of the disappearing-messages menu: messages do not disappear',
  },
  failed: {
    id: 'timer.control.failed',
    defaultMessage: 'Could not change the disappearing-messages timer.',
    description: 'Error toast when setting the timer failed',
  },
});

/**
 * The conversation header's disappearing-messages control: a native select (keyboard and
 * screen readers for free). A timer a peer set that is not one of the choices shows as itself.
 */
export function TimerControl({ c }: { c: ConversationSummary }) {
  const setTimer = useStore((s) => s.setTimer);
  const showToast = useStore((s) => s.showToast);
  const action = useAction(setTimer);
  const intl = useIntl();
  const known = TIMER_CHOICES.some((t) => t.seconds === c.timerSeconds);
  const label = intl.formatMessage(texts.label);
  const choice = (seconds: number) => (seconds === 0 ? intl.formatMessage(texts.off) : timerDuration(intl, seconds));
  return (
    <span className={`timer-control ${c.timerSeconds > 0 ? 'on' : ''}`} title={label}>
      <Icon name="timer" size={16} />
      <select
        aria-label={label}
        value={c.timerSeconds}
        disabled={action.busy}
        onChange={async (e) => {
          if (!(await action.run(c.id, Number(e.target.value))).ok)
            showToast('error', intl.formatMessage(texts.failed));
        }}
      >
        {TIMER_CHOICES.map((t) => (
          <option key={t.seconds} value={t.seconds}>
            {choice(t.seconds)}
          </option>
        ))}
        {!known && <option value={c.timerSeconds}>{choice(c.timerSeconds)}</option>}
      </select>
    </span>
  );
}
