import { MESSAGES } from "../../../../shared/messages";

export function MemoryPage({ id }: { id: string }) {
  return (
    <div data-memory-id={id}>
      <p>{MESSAGES.loading}</p>
    </div>
  );
}
