import { useQueryClient } from "@tanstack/react-query";
import { UserPlus } from "lucide-react";
import { useState } from "react";
import { Link } from "wouter";
import { MESSAGES, recordingsAdded, unclaimedDeadline } from "../../../../shared/messages";
import { canRetryProcessing } from "../../../../shared/rules";
import type { UnclaimedMemory } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { toast } from "../../../components/ui/use-toast";
import { formatRecordedAt } from "../../../lib/format-date";
import { useUser } from "../../auth/api/get-user";
import { useUnclaimedMemories } from "../api/get-unclaimed";
import { claimMemories } from "../processing/claim-memories";
import { requestSaveToAccount } from "../processing/memory-saved-events";
import { DeleteMemoryButton } from "./delete-memory-button";
import { RecordAgainButton } from "./failed-memory-actions";
import { FailureReason, MemoryStateBadge } from "./memory-list";
import { RetryButton } from "./retry-button";

/**
 * The home section of recordings not saved to an account yet. Logged out, each opens the
 * save-account dialog; logged in (the same browser), each is added directly.
 */
export function UnclaimedList() {
  const { data: user, isLoading: sessionLoading } = useUser();
  const unclaimed = useUnclaimedMemories();
  const items = unclaimed.data?.items ?? [];
  if (sessionLoading || items.length === 0) return null;
  const loggedIn = Boolean(user);
  return (
    <section
      aria-labelledby="unclaimed-heading"
      data-testid="unclaimed-recordings"
      className="mx-auto max-w-2xl space-y-3 rounded-xl border border-brand-500/40 bg-white p-4 shadow-sm sm:p-6"
    >
      <h2 id="unclaimed-heading" className="text-xl font-semibold text-brand-800">
        {MESSAGES.unclaimedHeading}
      </h2>
      <p className="text-sm text-slate-700">
        {loggedIn ? MESSAGES.unclaimedIntroLoggedIn : MESSAGES.unclaimedIntro}
      </p>
      <ul className="space-y-3" aria-labelledby="unclaimed-heading">
        {items.map((memory) => (
          <UnclaimedItem key={memory.id} memory={memory} loggedIn={loggedIn} />
        ))}
      </ul>
    </section>
  );
}

function UnclaimedItem({ memory, loggedIn }: { memory: UnclaimedMemory; loggedIn: boolean }) {
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const add = async () => {
    setAdding(true);
    try {
      const { claimed, failures } = await claimMemories(queryClient, [memory.id]);
      if (claimed.length > 0) toast({ title: recordingsAdded(claimed.length) });
      else
        toast({
          title: MESSAGES.claimFailed,
          description: failures[0],
          variant: "destructive",
        });
    } finally {
      setAdding(false);
    }
  };
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-slate-200 p-3">
      <Link href={`/memory/${memory.id}`} className="min-w-0 space-y-1">
        <span className="block truncate font-semibold text-slate-900 hover:underline">
          {memory.title || MESSAGES.untitledMemory}
        </span>
        <span className="block text-sm text-slate-700">{formatRecordedAt(memory.recordedAt)}</span>
        <span className="flex flex-wrap gap-1">
          <MemoryStateBadge memory={memory} />
        </span>
        <FailureReason memory={memory} />
        <span className="block text-xs text-slate-700">
          {unclaimedDeadline(formatRecordedAt(memory.claimExpiresAt))}
        </span>
      </Link>
      <div className="flex flex-wrap gap-2">
        {memory.status === "failed" && canRetryProcessing(memory.error) ? (
          <RetryButton memory={memory} className="min-h-11 sm:min-h-8" />
        ) : null}
        {memory.status === "failed" && !canRetryProcessing(memory.error) ? (
          <RecordAgainButton />
        ) : null}
        {memory.status === "failed" ? <DeleteMemoryButton memory={memory} /> : null}
        <Button
          size="sm"
          className="min-h-11 sm:min-h-8"
          disabled={adding}
          onClick={() => (loggedIn ? void add() : requestSaveToAccount(memory.id))}
        >
          <UserPlus className="h-4 w-4" aria-hidden="true" />
          {loggedIn ? MESSAGES.addToMyAccount : MESSAGES.saveToAccount}
        </Button>
      </div>
    </li>
  );
}
