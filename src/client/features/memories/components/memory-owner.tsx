import { Link } from "wouter";
import { profileTitle } from "../../../../shared/messages";
import { RELATIVES } from "../../../../shared/relatives";
import type { MemoryOwner } from "../../../../shared/schemas";

/** The profile (or, through a share link, the shared view) a memory belongs to. */
export function ownerProfilePath(owner: NonNullable<MemoryOwner["owner"]>): string {
  return `/profile/${encodeURIComponent(owner.username)}`;
}

/** Whose memory this is, linked to their memories: "From Grandma Rose's Memories". */
export function MemoryOwnerLink({ owner }: { owner: MemoryOwner["owner"] | undefined }) {
  if (!owner) return null;
  return (
    <p className="min-w-0 text-slate-700" data-testid="memory-owner">
      {RELATIVES.memoryFrom}{" "}
      <Link
        href={ownerProfilePath(owner)}
        className="inline-flex min-h-11 items-center font-medium text-slate-900 underline underline-offset-4"
      >
        {profileTitle(owner)}
      </Link>
    </p>
  );
}
