import { BellRing } from "lucide-react";
import { useEffect, useState } from "react";
import { REMINDER_MESSAGES } from "../../../../shared/reminder-messages";
import type { Memory } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { toast, toastError } from "../../../components/ui/use-toast";
import { browserTimeZone } from "../../../lib/browser-time-zone";
import { useUser } from "../../auth/api/get-user";
import { useReminders, useSaveReminders } from "../api/reminders";

/** Remembered in this browser per account: the offer is made once, taken or not. */
const offeredKey = (userId: string) => `weekly-reminder-offered:${userId}`;

function wasOffered(userId: string): boolean {
  try {
    return localStorage.getItem(offeredKey(userId)) !== null;
  } catch {
    return false;
  }
}

function markOffered(userId: string): void {
  try {
    localStorage.setItem(offeredKey(userId), "1");
  } catch {
    // Storage refused (private mode): the offer may come once more, after another memory.
  }
}

/**
 * After the owner saves a memory (`saved`, the latest), while they have never set up reminders: the weekly reminder in
 * one tap (the server's day and hour, in this browser's time zone), or Not now. Made once; never
 * when reminders are on, were set up on the account page, or cannot reach them (no email).
 */
export function WeeklyReminderOffer({ saved }: { saved: Memory }) {
  const { data: user } = useUser();
  const userId = user?.id;
  const [offerFor, setOfferFor] = useState<string | null>(null);
  // Each saved memory is a new object: the offer is considered again for every one.
  useEffect(() => {
    if (userId && saved.user_id === userId && !wasOffered(userId)) setOfferFor(userId);
  }, [saved, userId]);

  const asked = offerFor !== null && offerFor === userId;
  const reminders = useReminders(asked);
  const save = useSaveReminders();
  const settings = reminders.data;
  const shown =
    asked &&
    settings !== undefined &&
    !settings.saved &&
    !settings.weekly.enabled &&
    settings.hasEmail;

  useEffect(() => {
    if (shown && userId) markOffered(userId);
  }, [shown, userId]);

  if (!shown) return null;

  const turnOn = () =>
    save.mutate(
      {
        weekly: { ...settings.weekly, enabled: true, timeZone: browserTimeZone() },
        specialDays: settings.specialDays,
      },
      {
        onSuccess: () => {
          setOfferFor(null);
          toast({ title: REMINDER_MESSAGES.weeklyOfferDone });
        },
        onError: (error) => toastError(REMINDER_MESSAGES.notSaved, error),
      },
    );

  return (
    <Card className="mx-auto max-w-2xl space-y-3 p-4" data-testid="weekly-reminder-offer">
      <section aria-labelledby="weekly-reminder-offer-title" className="space-y-3">
        <h2
          id="weekly-reminder-offer-title"
          className="flex items-center gap-2 text-base font-semibold text-brand-800"
        >
          <BellRing className="h-4 w-4" aria-hidden="true" />
          {REMINDER_MESSAGES.weeklyOfferTitle}
        </h2>
        <p className="text-sm text-slate-700">{REMINDER_MESSAGES.weeklyOfferText}</p>
        <div className="flex flex-wrap gap-2">
          <Button onClick={turnOn} disabled={save.isPending} className="min-h-11">
            {REMINDER_MESSAGES.weeklyOfferAccept}
          </Button>
          <Button variant="ghost" className="min-h-11" onClick={() => setOfferFor(null)}>
            {REMINDER_MESSAGES.weeklyOfferDismiss}
          </Button>
        </div>
      </section>
    </Card>
  );
}
