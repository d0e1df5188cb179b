import { type Action, can, type Resource } from "../../../../shared/authorization";
import { membershipsOf, useJournals } from "../../journals/api/get-journals";
import { useUser } from "./get-user";

/**
 * The server's authorization rules, asked for the person using this browser, to decide what to
 * show. The server decides again on every request; this only keeps controls from those who may
 * not use them. A memory is passed as `memoryFacts(memory)` (src/shared/memory-facts.ts).
 */
export function useCan(): <A extends Action>(action: A, resource: Resource<A>) => boolean {
  const { data: user } = useUser();
  const { data: journals } = useJournals();
  const actor = { userId: user?.id ?? null, memberships: membershipsOf(journals) };
  return (action, resource) => can(actor, action, resource);
}
