import { useEffect, useState } from "react";
import type { Memory } from "../../../../shared/schemas";
import { onMemorySaved } from "../../memories/processing/memory-saved-events";
import { WeeklyReminderOffer } from "./weekly-reminder-offer";

/** The weekly reminder offer, made once an account's memory is saved on this page. */
export function WeeklyReminderOfferAfterSave() {
  const [saved, setSaved] = useState<Memory | null>(null);
  useEffect(() => onMemorySaved(setSaved), []);
  if (!saved?.user_id) return null;
  return <WeeklyReminderOffer saved={saved} />;
}
