/** A dialog form's buttons: Cancel, then the one action, which stays off while it cannot run. */
export function DialogFooter({ onCancel, submitLabel, disabled }: { onCancel: () => void; submitLabel: string; disabled: boolean }) {
  return (
    <div className="row end">
      <button type="button" className="btn btn-ghost" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className="btn btn-primary" disabled={disabled}>
        {submitLabel}
      </button>
    </div>
  );
}
