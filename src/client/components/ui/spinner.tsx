import { Loader2 } from "lucide-react";
import { MESSAGES } from "../../../shared/messages";
import { cn } from "../../lib/cn";

export function Spinner({ className, label }: { className?: string; label?: string }) {
  return (
    <span role="status" aria-label={label ?? MESSAGES.loadingShort} className="inline-flex">
      <Loader2 className={cn("h-5 w-5 animate-spin", className)} aria-hidden="true" />
    </span>
  );
}
