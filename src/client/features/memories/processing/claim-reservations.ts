/**
 * Memories a save-account dialog is about to claim: the offer made after logging in leaves them
 * out, so one memory is never offered twice while its claim is on its way.
 */
const reserved = new Set<string>();

export function reserveClaim(id: string): void {
  reserved.add(id);
}

export function releaseClaim(id: string): void {
  reserved.delete(id);
}

export function isClaimReserved(id: string): boolean {
  return reserved.has(id);
}
