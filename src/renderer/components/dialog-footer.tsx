import { FormattedMessage } from 'react-intl';
/** A dialog form's buttons: Cancel, then the one action, which stays off while it cannot run. */
export function DialogFooter({
  onCancel,
  submitLabel,
  disabled,
}: {
  onCancel: () => void;
  submitLabel: string;
  disabled: boolean;
}) {
  return (
    <div className="row end">
      <button type="button" className="btn btn-ghost" onClick={onCancel}>
        <FormattedMessage
          id="dialog.cancel"
          defaultMessage="Cancel"
          description="Button that closes a dialog without doing anything."
        />
      </button>
      <button type="submit" className="btn btn-primary" disabled={disabled}>
        {submitLabel}
      </button>
    </div>
  );
}
