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
      title="Delete this memory?"
      description="This removes the memory, its audio and its comments for good."
      action="Delete"
    />
  );
}
