import type { Identity } from "../auth/session.service";

/** What the visibility rule reads of a memory. */
export interface VisibilityFacts {
  user_id: string | null;
  anon_owner_hash: string | null;
  status: string;
}

/**
 * The one rule for who may see a memory, and so its comments and its audio (PRODUCT.md): the owner
 * sees their memories in any state; others see a saved memory when its owner's profile is visible
 * to them (public, or opened to this browser by a share link: ADR 0019); an anonymous recording is
 * seen only by the browser that made it, until it is claimed.
 * `profileVisible` is asked only when the answer depends on it.
 */
export async function memoryVisibleTo(
  memory: VisibilityFacts,
  identity: Identity,
  profileVisible: (ownerId: string, viewer: Identity) => Promise<boolean>,
): Promise<boolean> {
  if (memory.user_id === null) {
    return memory.anon_owner_hash !== null && memory.anon_owner_hash === identity.visitorHash;
  }
  if (memory.user_id === identity.userId) return true;
  if (memory.status !== "saved") return false;
  return profileVisible(memory.user_id, identity);
}
