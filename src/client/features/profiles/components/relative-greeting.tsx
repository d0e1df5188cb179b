import { relativeGreeting } from "../../../../shared/relatives";
import { useSharedWithMe } from "../../../lib/relative-view";

/**
 * The one line a relative's browser (holding a share link, nobody logged in) reads on every page:
 * whose memories they are listening to. Nothing for anyone else.
 */
export function RelativeGreeting() {
  const owners = useSharedWithMe();
  if (!owners || owners.length === 0) return null;
  return (
    <p
      data-testid="relative-greeting"
      className="mx-auto w-full max-w-4xl px-4 pt-4 text-slate-700"
    >
      {relativeGreeting(owners.map((owner) => owner.displayName || owner.username))}
    </p>
  );
}
