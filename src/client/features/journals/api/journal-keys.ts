/** Query keys of journals: structured, so a change invalidates by prefix. */
export const journalKeys = {
  all: ["journals"] as const,
  /** The journals of one account: keyed by it, so another login never sees the last one's. */
  mine: (userId: string) => ["journals", "list", { userId }] as const,
  /** The journal this device has open for an account (kept in storage, see open-journal.ts). */
  open: (userId: string) => ["journals", "open", { userId }] as const,
  members: (journalId: string) => ["journals", "members", journalId] as const,
  invitation: (token: string) => ["journals", "invitation", token] as const,
};

export const JOURNALS_PATH = "/api/journals";

export function journalUrl(id: string): string {
  return `${JOURNALS_PATH}/${encodeURIComponent(id)}`;
}

export function membersUrl(journalId: string, memberId?: string): string {
  const base = `${journalUrl(journalId)}/members`;
  return memberId ? `${base}/${encodeURIComponent(memberId)}` : base;
}

export function invitationUrl(token: string): string {
  return `/api/invitations/${encodeURIComponent(token)}`;
}
