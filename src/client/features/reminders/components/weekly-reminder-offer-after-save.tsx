import { lazy, Suspense, useEffect, useState } from "react";
import type { Memory } from "../../../../shared/schemas";
import { onMemorySaved } from "../../memories/processing/memory-saved-events";

const WeeklyReminderOffer = lazy(() =>
  import("./weekly-reminder-offer").then((m) => ({ default: m.WeeklyReminderOffer })),
);

/**
 * The weekly reminder offer, whose code is fetched only once an account's memory is saved on this
 * page (the only time it may be made), not with every visit.
 */
export function WeeklyReminderOfferAfterSave() {
  const [saved, setSaved] = useState<Memory | null>(null);
  useEffect(() => onMemorySaved(setSaved), []);
  if (!saved?.user_id) return null;
  return (
    <Suspense fallback={null}>
      <WeeklyReminderOffer saved={saved} />
    </Suspense>
  );
}
