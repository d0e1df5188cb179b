import { MESSAGES } from "../../../../shared/messages";
import { TypedDeleteDialog } from "../../../components/ui/typed-delete-dialog";

/** The memory's delete confirmation (typed 'delete', any case). */
export function DeleteMemoryDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  pending: boolean;
}) {
  return (
    <TypedDeleteDialog
      {...props}
      onConfirm={() => props.onConfirm()}
      title={MESSAGES.deleteMemoryTitle}
      description={MESSAGES.deleteMemoryDescription}
      action={MESSAGES.delete}
    />
  );
}
