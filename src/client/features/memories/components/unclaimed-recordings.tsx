import { useQuery } from "@tanstack/react-query";
import { useUser } from "../../auth/api/get-user";
import { unclaimedQueryOptions } from "../api/get-unclaimed";
import { UnclaimedList } from "./unclaimed-list";

/**
 * Home: what this browser recorded without an account and can still save to one (processing,
 * saved or failed), so a dismissed save-account dialog never strands a recording.
 */
export function UnclaimedRecordings() {
  const { isLoading: sessionLoading } = useUser();
  // The list itself polls while one is processing (useUnclaimedMemories).
  const unclaimed = useQuery(unclaimedQueryOptions());
  if (sessionLoading || !unclaimed.data?.items.length) return null;
  return <UnclaimedList />;
}
