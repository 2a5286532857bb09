import type { ConversationSummary } from '../../shared/domain.js';
import { TIMER_CHOICES, timerLabel } from '../../shared/disappearing.js';
import { Icon } from '../components/icon.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';

/**
 * The conversation header's disappearing-messages control: a native select (keyboard and
 * screen readers for free). A timer a peer set that is not one of the choices shows as itself.
 */
export function TimerControl({ c }: { c: ConversationSummary }) {
  const setTimer = useStore((s) => s.setTimer);
  const showToast = useStore((s) => s.showToast);
  const action = useAction(setTimer);
  const known = TIMER_CHOICES.some((t) => t.seconds === c.timerSeconds);
  return (
    <span className={`timer-control ${c.timerSeconds > 0 ? 'on' : ''}`} title="Disappearing messages">
      <Icon name="timer" size={16} />
      <select
        aria-label="Disappearing messages"
        value={c.timerSeconds}
        disabled={action.busy}
        onChange={async (e) => {
          if (!(await action.run(c.id, Number(e.target.value))).ok) showToast('error', 'Could not change the disappearing-messages timer.');
        }}
      >
        {TIMER_CHOICES.map((t) => (
          <option key={t.seconds} value={t.seconds}>
            {t.label}
          </option>
        ))}
        {!known && <option value={c.timerSeconds}>{timerLabel(c.timerSeconds)}</option>}
      </select>
    </span>
  );
}
